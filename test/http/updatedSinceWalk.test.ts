// Every list of the service (a 200 answer with `items` and `nextCursor`) declares and accepts `updatedSince`, walked from
// the route declarations: a list added later without it fails here.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { registeredGroups } from '../../src/http/groups.js';
import type { JsonSchema, RouteDecl } from '../../src/http/routeTypes.js';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';

const label = (r: RouteDecl): string => `${r.method.toUpperCase()} ${r.path}`;
const isList = (r: RouteDecl): boolean => {
  const properties = r.responses[200]?.schema?.properties as Record<string, unknown> | undefined;
  return r.method === 'get' && !!properties?.items && !!properties.nextCursor;
};
const lists = registeredGroups()
  .flatMap((g) => g.routes)
  .filter(isList);

describe('updatedSince: the list walk', () => {
  let server: TestServer;
  let company = '';
  let platform = '';
  before(async () => {
    server = await startTestServer();
    company = await server.signInAndSelect(server.admin);
    platform = (await server.signIn(TEST_ADMIN.email, TEST_ADMIN.password, TEST_ADMIN.totpSecret)).accessToken;
  });
  after(async () => server?.close());

  it('every list declares updatedSince as an RFC 3339 date-time', () => {
    assert.ok(lists.length >= 44, `${lists.length} lists`);
    const missing = lists.filter((r) => {
      const schema = (r.query?.properties as Record<string, JsonSchema> | undefined)?.updatedSince;
      return schema?.type !== 'string' || schema.format !== 'date-time';
    });
    assert.deepEqual(missing.map(label), []);
  });

  it('every list accepts it (200, or 404 for a record that does not exist) and names it in the 422 of a bad value', async () => {
    const future = encodeURIComponent(new Date(server.clock.now().getTime() + 86_400_000).toISOString());
    const failures: string[] = [];
    for (const r of lists) {
      const path = r.path.replace(/\{\w+\}/g, () => randomUUID());
      const token = r.auth === 'platform' ? platform : company;
      const good = await server.request('GET', `${path}?updatedSince=${future}`, { token });
      if (good.status !== 200 && good.status !== 404) failures.push(`${label(r)}: ${good.status} ${JSON.stringify(good.body)}`);
      if (good.status === 200 && good.body.items.length !== 0) failures.push(`${label(r)}: records changed tomorrow`);
      const bad = await server.request('GET', `${path}?updatedSince=yesterday`, { token });
      const pointers = (bad.body?.errors ?? []).map((e: { pointer: string }) => e.pointer);
      if (bad.status !== 422 || !pointers.includes('/query/updatedSince')) failures.push(`${label(r)}: bad value ${bad.status}`);
    }
    assert.deepEqual(failures, []);
  });
});
