// Real dialysis sessions of company A or B for suites whose bodies name one: a shift of the company's location, a
// requesting collaborator, an extra session of a patient on a date (tomorrow by default; never in the past).
import { shiftBody } from './dialisisWorld.js';
import { expectStatus, unique, type MonitoresWorld } from './monitoresWorld.js';

export type SessionOf = (token: string, patientId: string, date?: string) => Promise<string>;

const DAY_MS = 86_400_000;

/** The calendar date (UTC) `days` from the server's today. */
export const dateIn = (w: MonitoresWorld, days: number): string =>
  new Date(w.server.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);

export function sessionSeeds(w: MonitoresWorld): SessionOf {
  const setups = new Map<string, Promise<{ shiftId: string; staffId: string }>>();
  const setup = (token: string) => {
    if (!setups.has(token))
      setups.set(
        token,
        (async () => {
          const position = await w.createPosition(token, { code: unique('NEF-'), suggestedRoles: ['physician'] });
          const staffId = (await w.hire(token, position.body.id as string)).body.id as string;
          const locationId = (token === w.b ? w.stationB : w.stationA).locationId;
          const shift = await w.call(token, 'POST', '/dialisis/turnos', { json: shiftBody(locationId) });
          return { shiftId: expectStatus(shift, 201).body.id as string, staffId };
        })(),
      );
    return setups.get(token)!;
  };
  return async (token, patientId, date = dateIn(w, 1)) => {
    const { shiftId, staffId } = await setup(token);
    const json = { patientId, date, shiftId, kind: 'extra', reason: 'Recovery session', requestedBy: staffId };
    return expectStatus(await w.call(token, 'POST', '/dialisis/sesiones', { json }), 201).body.sessionId as string;
  };
}
