// The seed of the `reads` section, every record through the service's routes: a location with a station, 1,000
// patients, the hepatitis B module with a dose each, 50 sessions of today with ~120 readings each, half of them ended
// with a post block (so the month's adequacy and the alerts have treated sessions to judge, a third of them alerting).
import { CODE, doseBody, HEPATITIS_B_MODULE } from './generador.js';
import { patientBody } from './http.js';
import { seedDialisisDay, topUpReadings } from './dialisisDay.js';

const PATIENTS = 1_000;
const SESSIONS = 50;
const READINGS_PER_SESSION = 120;

export interface ReadsSeed {
  today: string;
  sessionIds: string[];
  moduleCode: string;
}

export async function seedReads(base: string, token: string, log: (s: string) => void): Promise<ReadsSeed> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}${path}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const inFlight = async (count: number, one: (i: number) => Promise<unknown>): Promise<void> => {
    for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => one(i + k)));
  };
  const sede = await call('POST', '/empresas/actual/sedes', { name: 'Sede lecturas' });
  const sedePath = `/empresas/actual/sedes/${String(sede.id)}`;
  const roomId = (await call('POST', `${sedePath}/salas`, { name: 'Sala 1' })).createdId as string;
  const stationId = (await call('POST', `${sedePath}/puestos`, { code: 'P-01', roomId })).createdId as string;
  const patientIds: string[] = [];
  await inFlight(PATIENTS, async (i) => patientIds.push(String((await call('POST', '/pacientes', JSON.parse(patientBody(i, '8')))).id)));
  await call('POST', '/generador/modulos', HEPATITIS_B_MODULE);
  await call('POST', `/generador/modulos/${CODE}/publicacion`, {});
  await inFlight(PATIENTS, (i) => call('POST', `/generador/m/${CODE}`, JSON.parse(doseBody(patientIds[i]!, i))));
  log(`  ${PATIENTS} patients and their doses`);
  // Started 4 h ago (or at the day's start): the ended ones then have a treatment time to judge (UF rate, its alerts).
  const startedAt = new Date(Math.max(Date.now() - 4 * 3_600_000, Date.parse(`${new Date().toISOString().slice(0, 10)}T00:01:00Z`)));
  const station = { locationId: String(sede.id), stationId };
  const { today, sessionIds } = await seedDialisisDay(base, token, station, SESSIONS, startedAt.toISOString());
  const readings = await topUpReadings(base, token, today, READINGS_PER_SESSION);
  log(`  ${SESSIONS} sessions, ${readings} readings`);
  // Half the sessions ended and weighed: treated sessions for the adequacy and the alerts (a high UF rate flags some).
  await inFlight(SESSIONS / 2, async (k) => {
    const path = `/dialisis/sesiones/${sessionIds[k]!}`;
    await call('POST', `${path}/fin`, {});
    await call('POST', `${path}/post-dialisis`, {
      scaleWeightKg: k % 3 === 0 ? 61 : 63.5, // 66 kg before: a third lose 5 kg in 4 h, a UF rate above the maximum
      bloodPressure: { systolic: 128, diastolic: 76 },
      pulse: 72,
      temperatureC: 36.4,
      machineUfMl: k % 3 === 0 ? 5000 : 2500,
      postBunMgDl: 22,
    });
  });
  return { today, sessionIds, moduleCode: CODE };
}
