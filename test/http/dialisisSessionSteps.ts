// The steps of a dialysis session over HTTP that the Dialisis session suites share (as dialisisDay.test.ts runs them
// inline): a ready machine, a prescription, check-in with the pre block and safety checks, an extra session today, a
// session started on its own shift and machine, and waiting for the consequences of an end or interruption.
import assert from 'node:assert/strict';
import { consistencyTokens } from '../../src/http/consistencyToken.js';
import { prescriptionBody } from './prescriptionWorld.js';
import { expectStatus, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';

export const MINUTE = 60_000;

export const preBlock = (overrides: Json = {}): Json => ({
  scaleWeightKg: 66,
  clothesKg: 0.5,
  bloodPressure: { systolic: 150, diastolic: 85 },
  pulse: 78,
  temperatureC: 36.6,
  preBunMgDl: 70,
  ...overrides,
});

export const safetyChecks = (overrides: Json = {}): Json => ({
  conductivityMsCm: 14,
  conductivityTargetMsCm: 14,
  dialysatePh: 7.2,
  dialysateTemperatureC: 36.5,
  residualDisinfectantAbsent: true,
  airDetectorTested: true,
  bloodLeakDetectorArmed: true,
  alarmsTested: true,
  checkedBy: 'RMQ',
  ...overrides,
});

export const postBlock = (overrides: Json = {}): Json => ({
  scaleWeightKg: 63,
  clothesKg: 0.5,
  bloodPressure: { systolic: 130, diastolic: 80 },
  pulse: 72,
  temperatureC: 36.5,
  machineUfMl: 3000,
  postBunMgDl: 25,
  ...overrides,
});

export type SessionSteps = ReturnType<typeof sessionSteps>;

export function sessionSteps(w: DialisisWorld) {
  const post = (token: string, path: string, json: unknown = {}, headers: Record<string, string> = {}): Promise<Answer> =>
    w.call(token, 'POST', path, { json, headers });
  const get = (path: string, token = w.a): Promise<Answer> => w.call(token, 'GET', path);
  const today = (): string => w.dateIn(0);
  /** An instant `minutesAgo` before the server clock (negative: in the future). */
  const at = (minutesAgo: number): string => new Date(w.server.clock.now().getTime() - minutesAgo * MINUTE).toISOString();
  const sessionPath = (id: string): string => `/dialisis/sesiones/${id}`;

  /** A machine of company A's station, with a preventive maintenance done today (the test clock is years after install). */
  async function readyMachine(overrides: Json = {}): Promise<string> {
    const id = (await w.register(w.a, overrides)).body.id as string;
    expectStatus(await post(w.a, `/monitores/${id}/mantenimientos-preventivos`, { performedOn: today(), actions: 'Initial check' }), 200);
    return id;
  }

  async function prescribe(patientId: string): Promise<void> {
    expectStatus(await post(w.physician.token, `/dialisis/pacientes/${patientId}/prescripciones`, prescriptionBody()), 201);
  }

  /** A patient of company A with a prescription in force. */
  async function prescribedPatient(overrides: Json = {}): Promise<string> {
    const id = await w.patient(w.a, overrides);
    await prescribe(id);
    return id;
  }

  /** Check-in, pre block and passed safety checks of a session. */
  async function readyToStart(sessionId: string, token = w.nurse.token): Promise<void> {
    const path = sessionPath(sessionId);
    expectStatus(await post(token, `${path}/llegada`), 200);
    expectStatus(await post(token, `${path}/pre-dialisis`, preBlock()), 200);
    expectStatus(await post(token, `${path}/controles-seguridad`, safetyChecks()), 200);
  }

  /** An extra session of the patient on a date (today by default) in a shift (a new one by default): its id. */
  async function extraSession(patientId: string, options: { shiftId?: string; date?: string } = {}): Promise<string> {
    const shiftId = options.shiftId ?? (await w.createShift(w.a));
    const body = {
      patientId,
      date: options.date ?? today(),
      shiftId,
      kind: 'extra',
      reason: 'Recovery session',
      requestedBy: w.physician.staffId,
    };
    return expectStatus(await w.extraSession(w.a, body), 201).body.sessionId as string;
  }

  /** A session of a prescribed patient started on a fresh machine (and this dialyzer): ids and the start's answer. */
  async function startedSession(
    patientId: string,
    equipment: { dialyzerId?: string } = {},
  ): Promise<{ sessionId: string; path: string; machineId: string; started: Answer }> {
    const sessionId = await extraSession(patientId);
    await readyToStart(sessionId);
    const machineId = await readyMachine();
    const body = { machineId, stationId: w.stationA.stationId, ...equipment };
    const started = expectStatus(await post(w.nurse.token, `${sessionPath(sessionId)}/inicio`, body), 200);
    return { sessionId, path: sessionPath(sessionId), machineId, started };
  }

  /** A session of the patient on a date started and ended at once; waits for its consequences: its id. */
  async function endedSession(patientId: string, date?: string): Promise<string> {
    const sessionId = await extraSession(patientId, date ? { date } : {});
    await readyToStart(sessionId);
    const machineId = await readyMachine();
    expectStatus(await post(w.nurse.token, `${sessionPath(sessionId)}/inicio`, { machineId }), 200);
    await processed(expectStatus(await post(w.nurse.token, `${sessionPath(sessionId)}/fin`), 200));
    return sessionId;
  }

  /** A manual reading `minutesAgo` before now. */
  const reading = (minutesAgo: number, overrides: Json = {}): Json => ({
    at: at(minutesAgo),
    bloodPressure: { systolic: 135, diastolic: 80 },
    pulse: 76,
    qbMlMin: 350,
    source: 'manual',
    ...overrides,
  });

  /** Waits until the process managers handled the write that gave this answer (its X-Event-Position). */
  /** The process managers handled the write, and what they wrote in turn is in the read models. */
  async function processed(answer: Answer): Promise<void> {
    const { services } = w.server;
    const position = (await consistencyTokens(services)).open(answer.headers.get('x-event-position')!);
    await services.processes.waitFor(position!);
    assert.ok(await services.projections.waitFor(await services.events.headPosition()), 'the read models reach the log head');
  }

  /**
   * A treated session: started, readings every hour for `hours`, ended, the post block recorded. Its answers are the end
   * and the post block (with the clinical values).
   */
  async function treatedSession(
    patientId: string,
    options: { hours?: number; post?: Json } = {},
  ): Promise<{ sessionId: string; path: string; machineId: string; ended: Answer; recorded: Answer }> {
    const session = await startedSession(patientId);
    for (let hour = 0; hour < (options.hours ?? 1); hour++) {
      await w.advance(60 * MINUTE);
      expectStatus(await post(w.nurse.token, `${session.path}/lecturas`, reading(30)), 200);
    }
    const ended = expectStatus(await post(w.nurse.token, `${session.path}/fin`), 200);
    const recorded = expectStatus(await post(w.nurse.token, `${session.path}/post-dialisis`, options.post ?? postBlock()), 200);
    return { ...session, ended, recorded };
  }

  return {
    post,
    get,
    today,
    at,
    sessionPath,
    readyMachine,
    prescribe,
    prescribedPatient,
    readyToStart,
    extraSession,
    startedSession,
    endedSession,
    reading,
    processed,
    treatedSession,
  };
}

/** The codes of the clinical flags of a session answer. */
export const flagCodes = (answer: Answer): string[] => ((answer.body.clinical as Json).flags as Json[]).map((f) => f.code as string);
