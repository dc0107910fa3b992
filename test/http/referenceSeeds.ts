// Real dialysis sessions of company A or B for suites whose bodies name one: a location and a shift of the company, a
// requesting collaborator, and an extra session of a patient on a date (never in the past; by default each session of a
// patient falls on the next free day from tomorrow, so a suite may ask for as many as it needs).
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
