// Real dialysis sessions of company A or B for suites whose bodies name one: a location and a shift of the company, a
// requesting collaborator, and an extra session of a patient on a date (never in the past; by default each session of a
// patient falls on the next free day from tomorrow, so a suite may ask for as many as it needs).
import { randomUUID } from 'node:crypto';
import { sessionStream } from '../../src/commands/dialisis/session/sessionEvents.js';
import { shiftBody } from './dialisisWorld.js';
import { expectStatus, unique, type StaffWorld } from './staffWorld.js';

export type SessionOf = (token: string, patientId: string, date?: string) => Promise<string>;

const DAY_MS = 86_400_000;

/** The calendar date (UTC) `days` from the server's today. */
export const dateIn = (w: StaffWorld, days: number): string =>
  new Date(w.server.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);

async function companySetup(w: StaffWorld, token: string): Promise<{ shiftId: string; staffId: string }> {
  const sede = await w.call(token, 'POST', '/empresas/actual/sedes', { json: { name: unique('Sede ') } });
  const locationId = expectStatus(sede, 201).body.id as string;
  const position = await w.createPosition(token, { code: unique('NEF-'), suggestedRoles: ['physician'] });
  const staffId = (await w.hire(token, position.body.id as string)).body.id as string;
  const shift = await w.call(token, 'POST', '/dialisis/turnos', { json: shiftBody(locationId) });
  return { shiftId: expectStatus(shift, 201).body.id as string, staffId };
}

export function sessionSeeds(w: StaffWorld): SessionOf {
  const setups = new Map<string, Promise<{ shiftId: string; staffId: string }>>();
  const days = new Map<string, number>();
  return async (token, patientId, date) => {
    if (!setups.has(token)) setups.set(token, companySetup(w, token));
    const { shiftId, staffId } = await setups.get(token)!;
    const day = (days.get(patientId) ?? 0) + 1;
    if (date === undefined) days.set(patientId, day);
    const json = { patientId, date: date ?? dateIn(w, day), shiftId, kind: 'extra', reason: 'Recovery session', requestedBy: staffId };
    return expectStatus(await w.call(token, 'POST', '/dialisis/sesiones', { json }), 201).body.sessionId as string;
  };
}

/** The equipment an ended session names (its start claimed them). */
export type UsedEquipment = { machineId?: string; dialyzerId?: string; arterialLineId?: string; venousLineId?: string };
export type EndedSessionOf = (
  token: string,
  patientId: string,
  equipment: UsedEquipment,
  effectiveMinutes?: number,
  /** A scheduled session of the patient to end (a new one by default). */
  scheduled?: string,
) => Promise<string>;

/**
 * A session of the patient that ran on this equipment and ended with these effective minutes, as a session charted on
 * paper during a downtime leaves it: its start and end are written to its stream as the session decider records them
 * (without the claims a start takes), and the end's process manager has reacted (refusing what no claim held) before
 * the answer, so a use recorded by hand afterwards is the use of an ended session.
 */
export function endedSessionSeeds(w: StaffWorld, sessionOf: SessionOf = sessionSeeds(w)): EndedSessionOf {
  const tenants = new Map<string, Promise<string>>();
  const tenantOf = (token: string): Promise<string> => {
    if (!tenants.has(token))
      tenants.set(
        token,
        w.call(token, 'GET', '/empresas/actual').then((a) => expectStatus(a, 200).body.id as string),
      );
    return tenants.get(token)!;
  };
  return async (token, patientId, equipment, effectiveMinutes = 240, scheduled) => {
    const sessionId = scheduled ?? (await sessionOf(token, patientId));
    const tenantId = await tenantOf(token);
    const { services } = w.server;
    const endedAt = w.server.clock.now().toISOString();
    const startedAt = new Date(Date.parse(endedAt) - effectiveMinutes * 60_000).toISOString();
    const metadata = (occurredAt: string) => ({
      tenantId,
      actor: w.server.admin.userId,
      sessionId: null,
      correlationId: randomUUID(),
      causationId: null,
      commandId: randomUUID(),
      occurredAt,
      ip: null,
      userAgent: null,
      reason: 'charted after a downtime',
    });
    const started = {
      machineId: equipment.machineId ?? randomUUID(),
      dialyzerId: equipment.dialyzerId ?? null,
      arterialLineId: equipment.arterialLineId ?? null,
      venousLineId: equipment.venousLineId ?? null,
      startedAt,
      prescription: { version: 1, durationMinutes: 240, dryWeightKg: 62 },
      warnings: [],
    };
    const appended = await services.events.appendToStream(
      sessionStream(tenantId, sessionId),
      [
        { id: randomUUID(), type: 'SessionStarted', data: started, metadata: metadata(startedAt) },
        { id: randomUUID(), type: 'SessionEnded', data: { endedAt, effectiveMinutes }, metadata: metadata(endedAt) },
      ],
      { expectedRevision: 0 },
    );
    await services.processes.waitFor(appended.position);
    await services.projections.waitFor(await services.events.headPosition());
    return sessionId;
  };
}
