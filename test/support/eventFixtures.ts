// Building blocks for event-store tests: unique tenants (a shared server never collides), events, waits.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent, RecordedEvent } from '../../src/stores/eventStore.js';

export function uniqueTenant(): string {
  return `t${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

export function testMetadata(tenantId: string, overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    tenantId,
    actor: 'user-1',
    sessionId: 'session-1',
    correlationId: randomUUID(),
    causationId: null,
    commandId: randomUUID(),
    occurredAt: new Date().toISOString(),
    ip: '203.0.113.7',
    userAgent: 'contract-test',
    reason: null,
    ...overrides,
  };
}

/** An event as a store answers it, with fixed metadata (position 42): for pure functions of recorded events. */
export function recordedEvent(
  streamName: string,
  type: string,
  data: Record<string, unknown> = {},
  fields: { id?: string; occurredAt?: string } = {},
): RecordedEvent {
  const metadata = testMetadata('t1', {
    actor: 'u1',
    sessionId: 's1',
    correlationId: 'c1',
    commandId: 'k1',
    ip: '10.0.0.1',
    userAgent: 'ua',
  });
  return {
    id: fields.id ?? 'e1',
    type,
    data,
    streamName,
    revision: 0,
    position: 42n,
    metadata: { ...metadata, occurredAt: fields.occurredAt ?? '2025-03-01T10:00:00.000Z' },
  };
}

export function newEvent(tenantId: string, data: Record<string, unknown> = {}, type = 'SomethingRecorded'): NewEvent {
  return { id: randomUUID(), type, data: { value: 1, ...data }, metadata: testMetadata(tenantId) };
}

/** Polls until `condition` holds; a bounded wait for asynchronous delivery, never a timing assertion. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
