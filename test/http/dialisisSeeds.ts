// Records of one company for the Dialisis route walk (dialisisWalk.test.ts): one of each kind a path parameter names -
// a shift of a location, a patient with a standing plan on every weekday, and the session today's generation schedules.
import assert from 'node:assert/strict';
import type { TestServer } from '../support/harness.js';
import { seedsFrom, type Seeds } from './adminSeeds.js';
import { shiftBody } from './dialisisWorld.js';
import { registration } from './pacientesWorld.js';

export async function seedDialisis(server: TestServer, token: string): Promise<Seeds> {
  const call = async (path: string, body: unknown, status: number): Promise<Record<string, unknown>> => {
    const answer = await server.request('POST', path, { token, body });
    assert.equal(answer.status, status, `${path}: ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  };
  const sede = await call('/empresas/actual/sedes', { name: 'Sede diálisis' }, 201);
  const base = `/empresas/actual/sedes/${String(sede.id)}`;
  const roomId = (await call(`${base}/salas`, { name: 'Sala' }, 201)).createdId as string;
  await call(`${base}/puestos`, { code: 'D-01', roomId }, 201);
  const patient = await call('/pacientes', registration(), 201);
  const shift = await call('/dialisis/turnos', shiftBody(sede.id as string), 201);
  // The server's calendar date (UTC): never before the day of a company west of UTC (Lima), so neither the plan nor the
  // generation take it for a past date; the plan runs every weekday, so today's generation schedules it.
  const today = server.clock.now().toISOString().slice(0, 10);
  const plan = await call(
    '/dialisis/planes',
    { patientId: patient.id, shiftId: shift.id, weekdays: [1, 2, 3, 4, 5, 6, 7], effectiveFrom: today },
    201,
  );
  const day = await call(`/dialisis/agenda/${today}/generacion`, {}, 200);
  const sessions = day.sessions as { sessionId: string; planId: string }[];
  const session = sessions.find((s) => s.planId === plan.id);
  assert.ok(session, `today's generation schedules the plan's session: ${JSON.stringify(day)}`);
  // Each record is there for its own company (once the read models catch up): A's 404s are isolation, not absence.
  const ids = { turnos: shift.id as string, planes: plan.id as string, sesiones: session.sessionId };
  const paths = [...Object.entries(ids).map(([kind, id]) => `/dialisis/${kind}/${id}`), `/pacientes/${String(patient.id)}`];
  for (const path of paths) {
    let answer = await server.request('GET', path, { token });
    for (let tries = 0; answer.status === 404 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await server.request('GET', path, { token });
    }
    assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
  }
  return seedsFrom({
    '/dialisis/turnos/{id}': ids.turnos,
    '/dialisis/planes/{id}': ids.planes,
    '/dialisis/sesiones/{id}': ids.sesiones,
    '/dialisis/pacientes/{patientId}': patient.id as string,
    '/dialisis/agenda/{fecha}': today,
  });
}
