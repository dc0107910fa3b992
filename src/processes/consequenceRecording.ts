// Recording what a session event caused (architecture.md, process managers): each consequence runs at the causing
// event's time with keys derived from its id, and is recorded on the session's consequence stream as applied or refused.
import { DomainError } from '../commands/decider.js';
import { handleCommand, type CommandContext } from '../commands/handleCommand.js';
import { consequenceDecider } from '../commands/dialisis/consequences/consequenceDecider.js';
import { type ConsequenceKind } from '../commands/dialisis/consequences/consequenceEvents.js';
import { traceCausedBy } from '../observability/traceContext.js';
import type { AppServices } from '../services.js';
import { tenantOfStream, type RecordedEvent } from '../stores/eventStore.js';

export const SESSION_CONSEQUENCES_ACTOR = 'process:session-consequences';

/** Commands of a consequence run at the causing event's time, keyed by its id (a replay decides nothing new), in its trace. */
export function consequenceContext(event: RecordedEvent, kind: ConsequenceKind): CommandContext {
  return {
    tenantId: tenantOfStream(event.streamName),
    actor: SESSION_CONSEQUENCES_ACTOR,
    sessionId: null,
    correlationId: event.metadata.correlationId,
    causationId: event.id,
    idempotencyKey: `consequence\u0000${kind}\u0000${event.id}`,
    ip: null,
    userAgent: null,
    at: event.metadata.occurredAt,
    ...traceCausedBy(event.metadata),
  };
}

/** Runs one consequence of a session event and records it on the session as applied or refused (a rule's refusal). */
export async function recordConsequence(
  services: AppServices,
  event: RecordedEvent,
  sessionId: string,
  kind: ConsequenceKind,
  itemId: string,
  command: (ctx: CommandContext) => Promise<unknown>,
): Promise<void> {
  const ctx = consequenceContext(event, kind);
  let refusal: { code: string; message: string } | null = null;
  try {
    await command(ctx);
  } catch (err) {
    // A rule refused it (the record is kept and shown); anything else is transient and retried from the checkpoint.
    if (!(err instanceof DomainError)) throw err;
    refusal = { code: err.code, message: err.message };
  }
  await recordOutcome(services, event, sessionId, kind, itemId, refusal);
}

/** Records an outcome decided elsewhere (e.g. a stock shortage reported, not thrown) on the session's consequences. */
export async function recordOutcome(
  services: AppServices,
  event: RecordedEvent,
  sessionId: string,
  kind: ConsequenceKind,
  itemId: string,
  refusal: { code: string; message: string } | null,
): Promise<void> {
  const data = { kind, itemId, causeEventId: event.id, refusal };
  const recordCtx = {
    ...consequenceContext(event, kind),
    idempotencyKey: `consequence-record\u0000${kind}\u0000${itemId}\u0000${event.id}`,
  };
  await handleCommand(services.events, consequenceDecider, { type: 'RecordConsequence', aggregateId: sessionId, data }, recordCtx);
}
