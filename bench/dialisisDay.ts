// A dialysis day through the real routes, for the bench's dialisis section and the focused board runner: sessions in
// progress and their intradialytic readings (the prescription fixture is shared with the soak and the crash harness).

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

/** The signed-in user's id: the `sub` of the access token (the bench only reads its own token). */
export const userIdOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** The user as prescriber: a physician's job position and staff record with a licence, linked to the user. */
export async function seedPhysician(call: Call, userId: string): Promise<Record<string, unknown>> {
  const position = await call('POST', '/cargos-laborales', {
    code: 'NEF',
    name: 'Nefrólogo',
    clinical: true,
    licenceRequired: true,
    licensingBody: 'CMP',
    suggestedRoles: ['physician'],
    physician: true,
  });
  return call('POST', '/colaboradores', {
    document: { type: 'DNI', number: '09999999' },
    givenNames: 'Carlos',
    familyNames: 'Rivas Soto',
    positionId: position.id,
    profession: 'Médico nefrólogo',
    licence: { body: 'CMP', number: 'CMP 40001', expiresOn: '2099-12-31' },
    hireDate: '2024-01-15',
    contractType: 'planilla',
    userId,
  });
}

/** An intradialytic reading from the machine, now. */
export const readingBody = (): string =>
  JSON.stringify({
    at: new Date().toISOString(),
    bloodPressure: { systolic: 130, diastolic: 78 },
    pulse: 74,
    qbMlMin: 350,
    cumulativeUfMl: 1200,
    source: 'machine',
  });

/** Records readings until every session of the day's board holds at least `perSession` (50 requests in flight). */
export async function topUpReadings(base: string, token: string, date: string, perSession: number): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const board = (await (await fetch(`${base}/dialisis/agenda?date=${date}`, { headers })).json()) as {
    shifts: { sessions: { id: string; readingCount: number }[] }[];
  };
  const missing = board.shifts
    .flatMap((s) => s.sessions)
    .flatMap((s) => Array<string>(Math.max(0, perSession - s.readingCount)).fill(s.id));
  for (let i = 0; i < missing.length; i += 50) {
    await Promise.all(
      missing.slice(i, i + 50).map(async (id) => {
        const r = await fetch(`${base}/dialisis/sesiones/${id}/lecturas`, { method: 'POST', headers, body: readingBody() });
        if (r.status >= 300) throw new Error(`recording a reading answered ${r.status}: ${await r.text()}`);
      }),
    );
  }
  return missing.length;
}

/**
 * Today's sessions in a shift of their own, each prescribed, checked in, pre-assessed, checked and started on its own
 * machine (now, or at `startedAt` charted after the fact).
 */
export async function seedDialisisDay(
  base: string,
  token: string,
  station: { locationId: string; stationId: string },
  count: number,
  startedAt?: string,
): Promise<{ today: string; sessionIds: string[] }> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}${path}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const today = new Date().toISOString().slice(0, 10);
  // The administrator prescribes: a physician's staff record with a licence, linked to the signed-in user.
  const physician = await seedPhysician(call, userIdOf(token));
  await call('GET', `/colaboradores/${String(physician.id)}`);
  const shift = await call('POST', '/dialisis/turnos', {
    name: 'Turno benchmark',
    locationId: station.locationId,
    dialysisStart: '00:00',
    dialysisEnd: '23:59',
    cleaningMinutes: 30,
    capacity: count,
    reservedCapacity: 2,
  });
  const patients = ((await call('GET', `/pacientes?limit=${count}`)).items as { id: string }[]).map((p) => p.id);
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
    await call('POST', `${path}/inicio`, { machineId: machine.id, ...(startedAt ? { startedAt } : {}) });
    sessionIds.push(String(session.sessionId));
  }
  return { today, sessionIds };
}
