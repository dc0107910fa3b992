// Dialisis hot paths through the real service: its main command (an intradialytic reading, the write a floor records
// every 30-60 minutes per patient) and its main list (the day board). Sessions are brought to "in progress" first:
// prescription, extra session in a shift, check-in, pre block, safety checks, start on a machine of their own.
import { runLoad, type LoadFigures } from './load.js';
import { readingBody, seedDialisisDay, topUpReadings } from './dialisisDay.js';

export { prescriptionBody } from './dialisisDay.js';

export interface DialisisFigures {
  recordReading: LoadFigures;
  dayBoard: LoadFigures;
  sessionSheet: LoadFigures;
}

const SESSIONS = 50;
const READINGS_PER_SESSION = 120;

export async function benchDialisis(
  base: string,
  token: string,
  station: { locationId: string; stationId: string },
  seconds: number,
): Promise<DialisisFigures> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const { today, sessionIds } = await seedDialisisDay(base, token, station, SESSIONS);
  let r = 0;
  const recordReading = await runLoad({
    scenario: `POST /dialisis/sesiones/{id}/lecturas (${SESSIONS} sessions)`,
    url: `${base}/dialisis/sesiones/${sessionIds[0]!}/lecturas`,
    method: 'POST',
    headers: auth,
    path: () => `/dialisis/sesiones/${sessionIds[r++ % sessionIds.length]!}/lecturas`,
    body: readingBody,
    durationSeconds: seconds,
  });
  // The board as a floor sees it by mid-shift: ~120 readings per session, whatever the load above reached.
  await topUpReadings(base, token, today, READINGS_PER_SESSION);
  const dayBoard = await runLoad({
    scenario: `GET /dialisis/agenda?fecha (day board, ${SESSIONS} sessions)`,
    url: `${base}/dialisis/agenda?date=${today}`,
    headers: auth,
    durationSeconds: seconds,
  });
  // 10 connections: one company has 2 sheets rendering and 8 waiting at most; after a first render each is a cache hit.
  let s = 0;
  const sessionSheet = await runLoad({
    scenario: `GET /dialisis/sesiones/{id}/hoja (PDF, ${SESSIONS} sessions, 10 connections)`,
    url: `${base}/dialisis/sesiones/${sessionIds[0]!}/hoja`,
    headers: { authorization: auth.authorization },
    path: () => `/dialisis/sesiones/${sessionIds[s++ % sessionIds.length]!}/hoja`,
    connections: 10,
    durationSeconds: seconds,
  });
  return { recordReading, dayBoard, sessionSheet };
}
