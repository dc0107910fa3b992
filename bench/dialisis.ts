// Dialisis hot paths through the real service: its main command (an intradialytic reading, the write a floor records
// every 30-60 minutes per patient) and its main list (the day board). Sessions are brought to "in progress" first:
// prescription, extra session in a shift, check-in, pre block, safety checks, start on a machine of their own.
import { runLoad, type LoadFigures } from './load.js';

/** A standard HD prescription (FX80, 240 min, UFH) valid from a day: the bench's, the soak's and the crash harness's. */
export function prescriptionBody(validFrom: string): Record<string, unknown> {
  return {
    modality: 'HD',
    durationMinutes: 240,
    frequencyPerWeek: 3,
    dryWeightKg: 62.5,
    ufGoalRule: 'pre-weight minus dry weight plus fluids given',
    qbMlMin: 350,
    qdMlMin: 500,
    dialyzer: { model: 'FX80', surfaceM2: 1.8, flux: 'high', membrane: 'Helixone' },
    dialysate: {
      acidConcentrateCode: 'AC-2K',
      sodiumMmolL: 138,
      potassiumMmolL: 2,
      calciumMmolL: 1.25,
      magnesiumMmolL: 0.5,
      bicarbonateMmolL: 32,
      glucoseMgDl: 100,
      temperatureC: 36,
    },
    anticoagulation: { kind: 'ufh', bolusUnits: 2000, hourlyUnits: 1000, stopMinutesBeforeEnd: 60 },
    medications: [],
    validFrom,
  };
}

export interface DialisisFigures {
  recordReading: LoadFigures;
  dayBoard: LoadFigures;
  sessionSheet: LoadFigures;
}

const SESSIONS = 50;

/** The signed-in user's id: the `sub` of the access token (the bench only reads its own token). */
const userIdOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

export async function benchDialisis(
  base: string,
  token: string,
  station: { locationId: string; stationId: string },
  seconds: number,
): Promise<DialisisFigures> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}${path}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const today = new Date().toISOString().slice(0, 10);
  // The administrator prescribes: a physician's staff record with a licence, linked to the signed-in user.
  const position = await call('POST', '/cargos-laborales', {
    code: 'NEF',
    name: 'Nefrólogo',
    clinical: true,
    licenceRequired: true,
    licensingBody: 'CMP',
    suggestedRoles: ['physician'],
    physician: true,
  });
  const physician = await call('POST', '/colaboradores', {
    document: { type: 'DNI', number: '09999999' },
    givenNames: 'Carlos',
    familyNames: 'Rivas Soto',
    positionId: position.id,
    profession: 'Médico nefrólogo',
    licence: { body: 'CMP', number: 'CMP 40001', expiresOn: '2099-12-31' },
    hireDate: '2024-01-15',
    contractType: 'planilla',
    userId: userIdOf(token),
  });
  await call('GET', `/colaboradores/${String(physician.id)}`);
  const shift = await call('POST', '/dialisis/turnos', {
    name: 'Turno benchmark',
    locationId: station.locationId,
    dialysisStart: '00:00',
    dialysisEnd: '23:59',
    cleaningMinutes: 30,
    capacity: SESSIONS,
    reservedCapacity: 2,
  });
  const patients = ((await call('GET', `/pacientes?limit=${SESSIONS}`)).items as { id: string }[]).map((p) => p.id);
  const sessionIds: string[] = [];
  for (const [k, patientId] of patients.entries()) {
    await call('POST', `/dialisis/pacientes/${patientId}/prescripciones`, prescriptionBody(today));
    const session = await call('POST', '/dialisis/sesiones', {
      patientId,
      date: today,
      shiftId: shift.id,
      kind: 'extra',
      reason: 'Benchmark',
      requestedBy: physician.id,
    });
    const path = `/dialisis/sesiones/${String(session.sessionId)}`;
    const machine = await call('POST', '/monitores', {
      code: `BD-${k}`,
      serial: `BD-SN-${k}`,
      brand: 'Fresenius',
      model: '5008S',
      ...station,
      installDate: today,
      isolation: 'none',
    });
    await call('POST', `${path}/llegada`, {});
    await call('POST', `${path}/pre-dialisis`, {
      scaleWeightKg: 66,
      bloodPressure: { systolic: 140, diastolic: 80 },
      pulse: 76,
      temperatureC: 36.5,
    });
    await call('POST', `${path}/controles-seguridad`, {
      conductivityMsCm: 14,
      conductivityTargetMsCm: 14,
      dialysateTemperatureC: 36.5,
      residualDisinfectantAbsent: true,
      airDetectorTested: true,
      bloodLeakDetectorArmed: true,
      alarmsTested: true,
      checkedBy: 'BEN',
    });
    await call('POST', `${path}/inicio`, { machineId: machine.id });
    sessionIds.push(String(session.sessionId));
  }
  let r = 0;
  const recordReading = await runLoad({
    scenario: `POST /dialisis/sesiones/{id}/lecturas (${SESSIONS} sessions)`,
    url: `${base}/dialisis/sesiones/${sessionIds[0]!}/lecturas`,
    method: 'POST',
    headers: auth,
    path: () => `/dialisis/sesiones/${sessionIds[r++ % sessionIds.length]!}/lecturas`,
    body: () =>
      JSON.stringify({
        at: new Date().toISOString(),
        bloodPressure: { systolic: 130, diastolic: 78 },
        pulse: 74,
        qbMlMin: 350,
        cumulativeUfMl: 1200,
        source: 'machine',
      }),
    durationSeconds: seconds,
  });
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
