// A round's material, prepared through the real routes while the service is up and before anything is killed: a shift
// of its own, and sessions checked in and ready (a covered, prescribed patient with an authorization, a machine of its
// own), some of them started already so the round can end them.
import type { Api, Json } from './api.js';
import { dayOf, prescription, type Company } from './seed.js';

export interface ReadySession {
  sessionId: string;
  patientId: string;
  machineId: string;
  /** A single-use dialyzer of the prescribed model assigned to the patient (its first use needs no reprocessing checks). */
  dialyzerId: string;
  authorizationId: string;
}

export interface Material {
  /** Ready to start in the round. */
  toStart: ReadySession[];
  /** Started already: the round ends them. */
  toEnd: ReadySession[];
  /** A shift of its own where the round schedules more sessions of these patients (a seat claim, then the session). */
  scheduleShiftId: string;
}

/** A document number no other patient of the run has (the run's prefix keeps runs on one directory apart). */
let documents = 0;
export const nextDocument = (): string => `7${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++documents).padStart(4, '0')}`;

export const registrationBody = (documentNumber: string, coverage?: Json): Json => ({
  documentType: 'DNI',
  documentNumber,
  givenNames: 'María José',
  familyNames: 'Quispe Huamán',
  sex: 'female',
  birthDate: '1961-05-02',
  admissionDate: '2024-11-04',
  etiology: 'diabetic nephropathy',
  dryWeightKg: 62.5,
  ...(coverage ? { coverages: [coverage] } : {}),
});

let machines = 0;

async function readySession(api: Api, company: Company, shiftId: string, round: number): Promise<ReadySession> {
  const post = (path: string, body: unknown) => api.expect(201, 'POST', path, body);
  const coverage = { clientId: company.clientId, memberNumber: `M-${nextDocument()}`, validFrom: dayOf(api.now(), -365) };
  const patientId = (await post('/pacientes', registrationBody(nextDocument(), coverage))).id as string;
  await post(`/dialisis/pacientes/${patientId}/prescripciones`, prescription(dayOf(api.now(), -1)));
  const authorization = await post(`/clientes/${company.clientId}/autorizaciones`, {
    patientId,
    code: `AUT-${round}-${patientId.slice(0, 8)}`,
    validFrom: dayOf(api.now(), -1),
    validTo: dayOf(api.now(), 60),
    sessionsAuthorized: 3,
  });
  return { ...(await sessionFor(api, company, shiftId, patientId, round)), authorizationId: authorization.id as string };
}

/** A session of a covered, prescribed patient in the shift, checked in and ready, with a new machine of its own. */
export async function sessionFor(
  api: Api,
  company: Company,
  shiftId: string,
  patientId: string,
  round: number,
): Promise<Omit<ReadySession, 'authorizationId'>> {
  const post = (path: string, body: unknown, status = 201) => api.expect(status, 'POST', path, body);
  const session = await post('/dialisis/sesiones', {
    patientId,
    date: dayOf(api.now()),
    shiftId,
    kind: 'extra',
    reason: 'Crash harness',
    requestedBy: company.physicianStaffId,
  });
  const sessionId = session.sessionId as string;
  const path = `/dialisis/sesiones/${sessionId}`;
  const n = ++machines;
  const machine = await post('/monitores', {
    code: `CR-${round}-${n}`,
    serial: `CR-SN-${round}-${n}-${Date.now()}`,
    brand: 'Fresenius',
    model: '5008S',
    ...company.station,
    installDate: dayOf(api.now(), -1),
    isolation: 'none',
  });
  const dialyzer = await post('/filtros-dialisis', {
    model: 'FX80',
    surfaceM2: 1.8,
    flux: 'high',
    membrane: 'Helixone',
    lot: 'L-CRASH',
    serial: `CR-DZ-${round}-${n}-${Date.now()}`,
    reusable: false,
  });
  await post(`/filtros-dialisis/${dialyzer.id as string}/asignacion`, { patientId, baselineTcvMl: 100 }, 200);
  await post(`${path}/llegada`, {}, 200);
  await post(
    `${path}/pre-dialisis`,
    { scaleWeightKg: 66, bloodPressure: { systolic: 140, diastolic: 80 }, pulse: 76, temperatureC: 36.5 },
    200,
  );
  await post(
    `${path}/controles-seguridad`,
    {
      conductivityMsCm: 14,
      conductivityTargetMsCm: 14,
      dialysateTemperatureC: 36.5,
      residualDisinfectantAbsent: true,
      airDetectorTested: true,
      bloodLeakDetectorArmed: true,
      alarmsTested: true,
      checkedBy: 'CRH',
    },
    200,
  );
  return { sessionId, patientId, machineId: machine.id as string, dialyzerId: dialyzer.id as string };
}

/** A shift of the round for `capacity` sessions: its id. */
export async function shiftFor(api: Api, company: Company, name: string, capacity: number): Promise<string> {
  const shift = await api.expect(201, 'POST', '/dialisis/turnos', {
    name,
    locationId: company.station.locationId,
    dialysisStart: '00:00',
    dialysisEnd: '23:59',
    cleaningMinutes: 30,
    capacity,
    reservedCapacity: 2,
  });
  return shift.id as string;
}

export const startBody = (s: Omit<ReadySession, 'authorizationId'>, company: Company): Json => ({
  machineId: s.machineId,
  dialyzerId: s.dialyzerId,
  stationId: company.station.stationId,
});

export async function prepareRound(
  api: Api,
  company: Company,
  round: number,
  counts: { starts: number; ends: number; schedules: number },
): Promise<Material> {
  const shiftId = await shiftFor(api, company, `Turno crash ${round}`, counts.starts + counts.ends + 2);
  const all: ReadySession[] = [];
  // Two at a time: quicker than one by one, gentle on a shared 2-core machine.
  for (let k = 0; k < counts.starts + counts.ends; k += 2) {
    const batch = Math.min(2, counts.starts + counts.ends - k);
    all.push(...(await Promise.all(Array.from({ length: batch }, () => readySession(api, company, shiftId, round)))));
  }
  const toEnd = all.slice(counts.starts);
  for (const s of toEnd) await api.expect(200, 'POST', `/dialisis/sesiones/${s.sessionId}/inicio`, startBody(s, company));
  const scheduleShiftId = await shiftFor(api, company, `Turno agenda ${round}`, counts.schedules + 2);
  return { toStart: all.slice(0, counts.starts), toEnd, scheduleShiftId };
}
