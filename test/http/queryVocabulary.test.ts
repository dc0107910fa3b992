// One query vocabulary (issue 22 item 6): every query parameter is the English camelCase name of the JSON field it
// filters on, or a declared deprecated alias of one; an old name answers as its new name, binds the same cursor,
// and an old and a new name sent with different values are refused, naming the old one.
import assert from 'node:assert/strict';
import { registeredGroups } from '../../src/http/groups.js';
import { buildOpenApiDocument } from '../../src/http/openapi.js';
import { QUERY_ALIASES, foldLegacyQuery, isVocabularyName } from '../../src/http/queryVocabulary.js';
import type { JsonSchema, RouteDecl } from '../../src/http/routeTypes.js';
import { expectStatus, pointers, startClientesWorld, type ClientesWorld } from './clientesWorld.js';
import type { ApiJson } from '../support/harness.js';

const groups = registeredGroups();
const routes: RouteDecl[] = groups.flatMap((g) => g.routes);
const label = (route: RouteDecl): string => `${route.method.toUpperCase()} ${route.path}`;

/** A query name outside the vocabulary that is not a deprecated alias of a name the route declares. */
function vocabularyProblems(route: RouteDecl): string[] {
  const props = (route.query?.properties ?? {}) as Record<string, JsonSchema>;
  const legacy = new Set(route.legacyQuery ?? []);
  return Object.entries(props).flatMap(([name, schema]) => {
    if (isVocabularyName(name)) return schema.deprecated ? [`${label(route)} ${name}: deprecated but not an old name`] : [];
    const next = QUERY_ALIASES[name];
    if (!next || !legacy.has(name)) return [`${label(route)} ${name}: not in the vocabulary`];
    const problems: string[] = [];
    if (schema.deprecated !== true) problems.push(`${label(route)} ${name}: alias not declared deprecated`);
    if (!String(schema.description).includes(`\`${next}\``)) problems.push(`${label(route)} ${name}: does not name ${next}`);
    if (!props[next]) problems.push(`${label(route)} ${name}: its new name ${next} is not declared`);
    return problems;
  });
}

describe('query vocabulary', () => {
  it('every query parameter of every route is English camelCase or a declared deprecated alias naming its new name', () => {
    assert.deepEqual(routes.flatMap(vocabularyProblems), []);
    assert.ok(routes.filter((r) => (r.legacyQuery ?? []).length > 0).length >= 25);
  });

  it('the walk catches a Spanish name that is not an alias, and an alias the route does not declare', () => {
    const query = (properties: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: false, properties });
    const spanish = { method: 'get', path: '/x', query: query({ sede: { type: 'string' } }) } as unknown as RouteDecl;
    const undeclared = { method: 'get', path: '/x', query: query({ estado: { type: 'string' } }) } as unknown as RouteDecl;
    assert.deepEqual(vocabularyProblems(spanish), ['GET /x sede: not in the vocabulary']);
    assert.deepEqual(vocabularyProblems(undeclared), ['GET /x estado: not in the vocabulary']);
  });

  it('the contract marks each old name deprecated', () => {
    const doc = buildOpenApiDocument(groups) as ApiJson;
    const deref = (o: ApiJson): ApiJson => (o.$ref ? doc.components.parameters[String(o.$ref).split('/').pop()!] : o);
    const params = (doc.paths['/clientes'].get.parameters as ApiJson[]).map(deref);
    const estado = params.find((p) => p.name === 'estado');
    assert.equal(estado.deprecated, true);
    assert.match(estado.description, /`status`/);
    assert.equal(params.find((p) => p.name === 'status').deprecated, undefined);
  });

  it('folds an old name into the new one, and names the old one when both differ', () => {
    const route = { legacyQuery: ['estado', 'desde'] };
    const same = { estado: 'active', status: 'active', desde: '2026-01-01' };
    assert.deepEqual(foldLegacyQuery(route, same), []);
    assert.deepEqual(same, { status: 'active', from: '2026-01-01' });
    const both = { estado: 'active', status: 'inactive' };
    assert.deepEqual(foldLegacyQuery(route, both), [
      { pointer: '/query/estado', message: "conflicts with 'status' (its new name): send only 'status'" },
    ]);
  });
});

describe('query vocabulary over HTTP', function () {
  this.timeout(60_000);
  let w: ClientesWorld;
  let clientId: string;
  before(async () => {
    w = await startClientesWorld();
    for (let i = 0; i < 3; i++) clientId = (await w.client(w.a)).body.id as string;
  });
  after(async () => w?.close());

  const get = async (path: string) => w.call(w.a, 'GET', path);

  it('answers an old name as its new name', async () => {
    const old = expectStatus(await get('/clientes?estado=active&tipo=social-security&limit=200'), 200);
    const fresh = expectStatus(await get('/clientes?status=active&payerType=social-security&limit=200'), 200);
    assert.ok((old.body.items as unknown[]).length >= 3);
    assert.deepEqual(old.body, fresh.body);
    const none = expectStatus(await get('/clientes?estado=inactive&limit=200'), 200);
    assert.deepEqual(none.body.items, []);
    // A required parameter sent under its old name is the required one.
    const report = expectStatus(await get(`/clientes/${clientId}/reporte-mensual?mes=2026-11&formato=json`), 200);
    assert.deepEqual(report.body, expectStatus(await get(`/clientes/${clientId}/reporte-mensual?month=2026-11&format=json`), 200).body);
  });

  it('refuses an old and a new name with different values (422 naming the old one); the same value twice is one', async () => {
    const refused = expectStatus(await get('/clientes?estado=active&status=inactive'), 422, 'validation-failed');
    assert.deepEqual(pointers(refused), ['/query/estado']);
    expectStatus(await get('/clientes?estado=active&status=active'), 200);
  });

  it('binds a cursor to the filter, whatever name carried it', async () => {
    const first = expectStatus(await get('/clientes?estado=active&limit=1'), 200);
    const cursor = encodeURIComponent(first.body.nextCursor as string);
    expectStatus(await get(`/clientes?status=active&limit=1&cursor=${cursor}`), 200);
    expectStatus(await get(`/clientes?estado=active&limit=1&cursor=${cursor}`), 200);
    expectStatus(await get(`/clientes?estado=inactive&limit=1&cursor=${cursor}`), 400, 'invalid-cursor');
  });
});
