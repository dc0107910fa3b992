// Clinical records and their audit are never erased by any route (issue 23 item 4), walked from the declarations: a
// company with a patient, a note, a plan, a session and a legal hold; the note is amended, the session cancelled, the
// plan ended and the patient recorded deceased; then every route of the service is called once with a valid sample
// (erase-like ones too, DELETE included); every event recorded before is still in the log,
// unchanged, and every clinical record still answers. A route added later is walked without editing this test.
import assert from 'node:assert/strict';
import { registeredGroups } from '../../src/http/groups.js';
import { OPTIONAL_MODULES } from '../../src/commands/platform/company/events.js';
import type { RouteDecl } from '../../src/http/routeTypes.js';
import type { RecordedEvent } from '../../src/stores/eventStore.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { seedDialisis } from './dialisisSeeds.js';
import { pathWith, queryOf, requestOf } from './routeWalk.js';

const label = (r: RouteDecl): string => `${r.method.toUpperCase()} ${r.path}`;
/** Names of actions that could remove a record, in the route's last path segment. */
const ERASE_LIKE =
  /\/(baja|bajas|anulacion|retiro|descarte|cancelacion|cierre|cese|fin|fin-uso|revocacion|desactivacion|suspension|inasistencia|interrupcion|terminacion|liberaciones|levantamiento|eliminacion|borrado|purga|archivo|delete|erase|purge|remove|archive)$/;
/** Every DELETE of the service and why it removes no clinical record: a new one fails until it says so here. */
const DELETES: Record<string, string> = {
  'DELETE /productos/kits/pacientes/{patientId}': "records KitRemoved on the kit's stream: a supply setting, not a clinical record",
};
/** Routes that end the walking session: called last. */
const LAST = new Set(['POST /auth/logout']);

async function wholeLog(server: TestServer): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let after: bigint | undefined;
  for (;;) {
    const page: RecordedEvent[] = await server.services.events.readAll({ ...(after === undefined ? {} : { after }), maxCount: 1000 });
    if (page.length === 0) return out;
    for (const e of page) out.set(e.id, JSON.stringify({ ...e, position: e.position.toString() }));
    after = page.at(-1)!.position;
  }
}

describe('retention: no route erases a clinical record or its events', () => {
  const routes = registeredGroups().flatMap((g) => g.routes);
  let server: TestServer;
  let token: string;
  let ids: Record<string, string>;
  let recorded: Map<string, string>;
  const answers = new Map<string, { status: number; type: string | undefined }>();

  before(async function () {
    this.timeout(120_000);
    server = await startTestServer();
    token = await server.signInAndSelect(server.admin);
    const seeds = await seedDialisis(server, token);
    const patientId = seeds.valueFor('/dialisis/pacientes/{patientId}', 'patientId');
    const note = await server.request('POST', `/pacientes/${patientId}/notas`, {
      token,
      body: { noteType: 'general', text: 'Paciente estable', occurredAt: server.clock.now().toISOString() },
    });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    const hold = await server.request('POST', `/pacientes/${patientId}/retencion-legal`, {
      token,
      body: { held: true, reason: 'Demanda' },
    });
    assert.equal(hold.status, 200, JSON.stringify(hold.body));
    ids = {
      patient: patientId,
      note: note.body.id as string,
      session: seeds.valueFor('/dialisis/sesiones/{id}', 'id'),
      plan: seeds.valueFor('/dialisis/planes/{id}', 'id'),
    };
    const value = (path: string, name: string): string => {
      try {
        return seeds.valueFor(path, name);
      } catch {
        return name === 'noteId' ? ids.note! : ids.patient!;
      }
    };
    recorded = await wholeLog(server);
    // The most final things a clinical record can undergo, each with a valid request: they must succeed and erase nothing.
    const today = server.clock.now().toISOString().slice(0, 10);
    const finalActs: [string, string, unknown][] = [
      ['POST', `/pacientes/${ids.patient}/notas/${ids.note}/enmiendas`, { reason: 'Error de registro', text: 'Corregido' }],
      ['POST', `/dialisis/sesiones/${ids.session}/cancelacion`, { reason: 'Paciente trasladado' }],
      ['POST', `/dialisis/planes/${ids.plan}/fin`, { effectiveTo: today, reason: 'Fallecimiento' }],
      ['POST', `/pacientes/${ids.patient}/estado`, { status: 'deceased', reason: 'Fallecimiento', effectiveDate: today }],
    ];
    for (const [method, path, body] of finalActs) {
      const answer = await server.request(method, path, { token, body });
      assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    const ordered = [...routes.filter((r) => !LAST.has(label(r))), ...routes.filter((r) => LAST.has(label(r)))];
    for (const route of ordered) {
      const { body, headers } = requestOf(route);
      const answer = await server.request(route.method.toUpperCase(), pathWith(route, (n) => value(route.path, n)) + queryOf(route), {
        token,
        body,
        headers: { ...headers, 'if-match': '*' },
      });
      answers.set(label(route), { status: answer.status, type: (answer.body as { type?: string } | null)?.type });
    }
    // The walk's sample may switch modules off (which keeps their data): switch every one back on to read the records.
    const admin = await server.signInAndSelect(server.admin);
    const modules = await server.request('PUT', '/empresas/actual/modulos', {
      token: admin,
      body: { modules: [...OPTIONAL_MODULES], reason: 'Lectura tras el recorrido' },
      headers: { 'if-match': '*' },
    });
    assert.equal(modules.status, 200, JSON.stringify(modules.body));
  });
  after(async () => server?.close());

  it('names every DELETE route and why it erases no clinical record; no clinical group has one', () => {
    const deletes = routes.filter((r) => r.method === 'delete');
    assert.deepEqual(deletes.map(label).sort(), Object.keys(DELETES).sort());
    for (const r of deletes) assert.ok(!['Pacientes', 'Dialisis', 'Sistema'].includes(r.tag), label(r));
    const eraseLike = routes.filter((r) => r.method === 'delete' || ERASE_LIKE.test(r.path));
    assert.ok(eraseLike.length >= 20, `${eraseLike.length} erase-like routes`); // a detector that matches nothing fails
  });

  it('walked every route, erase-like ones through their handlers (authenticated, permitted)', () => {
    assert.equal(answers.size, routes.length);
    // A business rule's 403 (a prescriber who may not sign) was reached; the permission and platform checks were not.
    const denied = new Set(['/problems/forbidden', '/problems/platform-admin-required']);
    const refused = [...answers].filter(([l, a]) => (a.status === 401 || denied.has(a.type ?? '')) && !l.startsWith('POST /auth/'));
    assert.deepEqual(refused, [], 'the walking administrator reached every company and platform route');
  });

  it('keeps every event recorded before the walk, unchanged: the log only grew', async () => {
    const now = await wholeLog(server);
    const lost = [...recorded.keys()].filter((id) => !now.has(id));
    const changed = [...recorded].filter(([id, json]) => now.has(id) && now.get(id) !== json).map(([id]) => id);
    assert.deepEqual(lost, [], 'events removed by a route');
    assert.deepEqual(changed, [], 'events rewritten by a route');
    assert.ok(now.size > recorded.size, 'the walk wrote: its erase-like actions were recorded as events');
  });

  it('still answers every clinical record with its history, and the legal hold', async function () {
    this.timeout(30_000);
    const admin = await server.signInAndSelect(server.admin); // the walk ended with POST /auth/logout
    const reads = [
      `/pacientes/${ids.patient}`,
      `/pacientes/${ids.patient}/historial`,
      `/pacientes/${ids.patient}/notas/${ids.note}`,
      `/dialisis/sesiones/${ids.session}`,
      `/dialisis/sesiones/${ids.session}/historial`,
      `/dialisis/planes/${ids.plan}`,
      `/pacientes/${ids.patient}/retencion-legal`,
    ];
    for (const path of reads) {
      let answer = await server.request('GET', path, { token: admin });
      // A projection rebuild the walk started may still be running.
      for (let tries = 0; answer.status !== 200 && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        answer = await server.request('GET', path, { token: admin });
      }
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
    }
  });
});
