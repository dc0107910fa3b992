// Every list of the service (a 200 answer with `items` and `nextCursor`) declares and accepts `updatedSince`, walked from
// the route declarations: a list added later without it fails here, and so does a handler that never reads it (its
// query is watched while it answers).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { registeredGroups } from '../../src/http/groups.js';
import type { GroupModule } from '../../src/http/groupModule.js';
import type { JsonSchema, RouteDecl } from '../../src/http/routeTypes.js';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';
import { registration } from './pacientesWorld.js';
import { clientBody } from './clientesWorld.js';

const label = (r: RouteDecl): string => `${r.method.toUpperCase()} ${r.path}`;
const isList = (r: RouteDecl): boolean => {
  const properties = r.responses[200]?.schema?.properties as Record<string, unknown> | undefined;
  return r.method === 'get' && !!properties?.items && !!properties.nextCursor;
};
const lists = registeredGroups()
  .flatMap((g) => g.routes)
  .filter(isList);

/** The lists whose handler read updatedSince from its query. */
const read = new Set<string>();
const watched = (r: RouteDecl): RouteDecl => ({
  ...r,
  handle: (input, ctx) => {
    const see = (key: string | symbol) => key === 'updatedSince' && read.add(label(r));
    const query = new Proxy(input.query as object, {
      get: (target, key, receiver) => (see(key), Reflect.get(target, key, receiver) as unknown),
      has: (target, key) => (see(key), Reflect.has(target, key)),
    });
    return r.handle({ ...input, query }, ctx);
  },
});
const groups: GroupModule[] = registeredGroups().map((g) => ({ ...g, routes: g.routes.map((r) => (isList(r) ? watched(r) : r)) }));

describe('updatedSince: the list walk', () => {
  let server: TestServer;
  let company = '';
  let platform = '';
  const records: Record<string, string> = {};
  before(async () => {
    server = await startTestServer({ groups });
    company = await server.signInAndSelect(server.admin);
    platform = (await server.signIn(TEST_ADMIN.email, TEST_ADMIN.password, TEST_ADMIN.totpSecret)).accessToken;
    const create = async (path: string, body: unknown): Promise<string> => {
      const answer = await server.request('POST', path, { token: company, body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.id as string;
    };
    records.patient = await create('/pacientes', registration());
    records.client = await create('/clientes', clientBody());
  });
  after(async () => server?.close());

  /** A patient's or a client's lists name a record that exists; any other parameter names none (a 404). */
  const pathOf = (r: RouteDecl): string =>
    r.path.replace(/\{(\w+)\}/g, (_m, name: string, at: number) => {
      if (name === 'patientId' || (name === 'id' && r.path.slice(0, at) === '/pacientes/')) return records.patient!;
      if (name === 'id' && r.path.slice(0, at) === '/clientes/') return records.client!;
      if (name === 'code') return 'no-such-code'; // a code (a module's, a role's) that names none
      return randomUUID();
    });

  it('every list declares updatedSince as an RFC 3339 date-time', () => {
    assert.ok(lists.length >= 44, `${lists.length} lists`);
    const missing = lists.filter((r) => {
      const schema = (r.query?.properties as Record<string, JsonSchema> | undefined)?.updatedSince;
      return schema?.type !== 'string' || schema.format !== 'date-time';
    });
    assert.deepEqual(missing.map(label), []);
  });

  it('every list accepts it, reads it when it answers, and names it in the 422 of a bad value', async () => {
    const future = encodeURIComponent(new Date(server.clock.now().getTime() + 86_400_000).toISOString());
    const failures: string[] = [];
    let answered = 0;
    for (const r of lists) {
      const path = pathOf(r);
      const token = r.auth === 'platform' ? platform : company;
      const good = await server.request('GET', `${path}?updatedSince=${future}`, { token });
      if (good.status === 200) {
        answered++;
        if (good.body.items.length !== 0) failures.push(`${label(r)}: records changed tomorrow`);
        if (!read.has(label(r))) failures.push(`${label(r)}: its handler never reads updatedSince`);
      } else if (good.status !== 404) failures.push(`${label(r)}: ${good.status} ${JSON.stringify(good.body)}`);
      const bad = await server.request('GET', `${path}?updatedSince=yesterday`, { token });
      const pointers = (bad.body?.errors ?? []).map((e: { pointer: string }) => e.pointer);
      if (bad.status !== 422 || !pointers.includes('/query/updatedSince')) failures.push(`${label(r)}: bad value ${bad.status}`);
    }
    assert.deepEqual(failures, []);
    assert.ok(answered >= 30, `${answered} lists answered 200`);
  });
});
