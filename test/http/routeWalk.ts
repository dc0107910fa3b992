// Isolation and permissions over every route of some groups, walked from their declarations: a route added later is
// covered without editing a test (a new path parameter only needs a record of company B in the suite's seeds).
//  - a company role lacking the route's permission gets 403, and so does an API client token without it; a company
//    role never reaches a platform route;
//  - company A's admin (every permission) naming company B's records gets 404, as if they did not exist;
//  - the OpenAPI document lists the groups' tags and every status each route can answer.
import assert from 'node:assert/strict';
import jsf from 'json-schema-faker';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';
import { registeredGroups } from '../../src/http/groups.js';
import type { JsonSchema, RouteDecl } from '../../src/http/routeTypes.js';
import { activateAndEnroll, clientToken, LIMA_PROFILE, registerCompany, signInto } from './adminWorld.js';
import type { Seeds } from './adminSeeds.js';
import { assertOpenApiShape } from './openApiShape.js';
import { frameworkResponses } from '../../src/http/openapi.js';

// A deterministic pseudo-random sequence: the same samples on every run.
let seed = 42;
const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
jsf.option({ alwaysFakeOptionals: false, useDefaultValue: true, failOnInvalidTypes: true, fillProperties: false, random: next });
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats.default(ajv);

/** The faker reads exclusive bounds as inclusive: hand it inclusive bounds just inside them. */
function forFaker(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forFaker);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = forFaker(value);
  const step = out.type === 'integer' ? 1 : 0.5;
  if (typeof out.exclusiveMinimum === 'number') out.minimum = out.exclusiveMinimum + step;
  if (typeof out.exclusiveMaximum === 'number') out.maximum = out.exclusiveMaximum - step;
  delete out.exclusiveMinimum;
  delete out.exclusiveMaximum;
  return out;
}

/** A value the schema accepts, drawn until the schema's own validator agrees. */
function sample(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  const valid = ajv.compile(schema);
  const fakeable = forFaker(schema) as JsonSchema;
  for (let attempt = 0; attempt < 50; attempt++) {
    const value = jsf.generate(structuredClone(fakeable));
    if (valid(value)) return value;
  }
  throw new Error(`routeWalk: no valid sample of ${JSON.stringify(schema).slice(0, 200)}`);
}

const paramNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const prefixOf = (path: string, name: string): string => path.slice(0, path.indexOf(`{${name}}`) + name.length + 2);

export function pathWith(route: RouteDecl, values: (name: string) => string): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values(name)));
}

export function requestOf(route: RouteDecl): { body?: unknown; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const declared = Object.keys(route.requestHeaders ?? {}).map((h) => h.toLowerCase());
  if (declared.includes('if-match')) headers['if-match'] = 'W/"0"';
  return { ...(route.body ? { body: sample(route.body) } : {}), headers };
}

export function queryOf(route: RouteDecl): string {
  const query = sample(route.query) as Record<string, unknown> | undefined;
  const required = new Set((route.query?.required as string[] | undefined) ?? []);
  const entries = Object.entries(query ?? {}).filter(([k]) => required.has(k));
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
}

export interface RouteWalk {
  title: string;
  tags: string[];
  /** Fewest routes the groups must declare (guards against a filter that silently matches nothing). */
  minRoutes: number;
  /**
   * Path parameters that name no record (a date, say), each as the path prefix that ends with it, e.g.
   * '/dialisis/agenda/{fecha}': the seeds still give their value; a route whose every parameter is one has no 404 case.
   */
  notRecords?: string[];
  /** Records of company B, one of each kind a path parameter names. */
  seed(server: TestServer, tokenB: string, company: { id: string; adminUserId: string }): Promise<Seeds>;
}

export function describeRouteWalk(walk: RouteWalk): void {
  const TAGS = walk.tags;
  const routes = registeredGroups()
    .filter((g) => TAGS.includes(g.tag))
    .flatMap((g) => g.routes);
  describe(walk.title, () => {
    let server: TestServer;
    let adminA: string;
    let limitedA: string;
    let programA: string;
    let seedsB: Seeds;
    before(async function () {
      this.timeout(60_000);
      server = await startTestServer();
      const platform = await server.signInAndSelect(server.admin);
      const a = await registerCompany(server, platform, {
        ...LIMA_PROFILE,
        taxId: { type: 'RUC', number: '20131312955' },
        admin: { email: 'a@a.pe', name: 'A' },
      });
      const b = await registerCompany(server, platform, {
        ...LIMA_PROFILE,
        taxId: { type: 'RUC', number: '20100070970' },
        admin: { email: 'b@b.pe', name: 'B' },
      });
      const personA = await activateAndEnroll(server, 'a@a.pe', a.admin.activation.token);
      const personB = await activateAndEnroll(server, 'b@b.pe', b.admin.activation.token);
      adminA = await signInto(server, personA, a.company.id);
      const adminB = await signInto(server, personB, b.company.id);
      seedsB = await walk.seed(server, adminB, { id: b.company.id, adminUserId: personB.userId });

      const role = await server.request('POST', '/roles', {
        token: adminA,
        body: { code: 'reader', name: 'Reader', permissions: ['pacientes:read'] },
      });
      assert.equal(role.status, 201, JSON.stringify(role.body));
      const invited = await server.request('POST', '/usuarios', { token: adminA, body: { email: 'r@a.pe', name: 'R', roles: ['reader'] } });
      const reader = await activateAndEnroll(server, 'r@a.pe', invited.body.activation.token);
      limitedA = await signInto(server, reader, a.company.id);
      const client = await server.request('POST', '/integraciones', { token: adminA, body: { name: 'Reader program', roles: ['reader'] } });
      const issued = await clientToken(server, client.body.client.id, client.body.clientSecret);
      programA = issued.body.access_token;
    });
    after(async () => server?.close());

    it('documents the tags and every route with its full status table in the OpenAPI document', async () => {
      const doc = (await server.request('GET', '/openapi.json')).body;
      assertOpenApiShape(doc);
      for (const tag of TAGS)
        assert.ok(
          doc.tags.some((t: ApiJson) => t.name === tag && t.description),
          tag,
        );
      for (const route of routes) {
        const op = doc.paths[route.path]?.[route.method];
        assert.ok(op, `${route.method} ${route.path} is documented`);
        assert.deepEqual(op.tags, [route.tag]);
        const expected = [...Object.keys(route.responses), ...Object.keys(frameworkResponses(route)), '500'];
        for (const status of expected) assert.ok(op.responses[status], `${route.method} ${route.path} documents ${status}`);
      }
      const token = doc.paths['/auth/token'].post;
      assert.ok(token.requestBody.content['application/x-www-form-urlencoded'], 'the token endpoint takes forms (RFC 6749)');
    });

    it('walks every route of the groups', () => {
      assert.ok(routes.length >= walk.minRoutes, `only ${routes.length} routes found`);
      for (const tag of TAGS)
        assert.ok(
          routes.some((r) => r.tag === tag),
          tag,
        );
    });

    for (const route of routes.filter((r) => r.auth === 'tenant' || r.auth === 'platform')) {
      const label = `${route.method.toUpperCase()} ${route.path}`;
      it(`${label}: 403 for a role without ${route.permission ?? 'the platform'}`, async () => {
        if (route.auth === 'tenant') assert.ok(route.permission, 'a company route declares its permission');
        const path = pathWith(route, (name) => seedsB.valueFor(route.path, name));
        const token = route.auth === 'platform' ? adminA : limitedA;
        const answer = await server.request(route.method.toUpperCase(), path + queryOf(route), { token, ...requestOf(route) });
        assert.equal(answer.status, 403, JSON.stringify(answer.body));
        assert.equal(answer.body.type, route.auth === 'platform' ? '/problems/platform-admin-required' : '/problems/forbidden');
      });
    }

    for (const route of routes.filter((r) => r.auth !== 'public')) {
      const label = `${route.method.toUpperCase()} ${route.path}`;
      it(`${label}: 403 for an API client token without the permission`, async () => {
        const path = pathWith(route, (name) => seedsB.valueFor(route.path, name));
        const answer = await server.request(route.method.toUpperCase(), path + queryOf(route), { token: programA, ...requestOf(route) });
        assert.equal(answer.status, 403, JSON.stringify(answer.body));
      });
    }

    const namesRecord = (route: RouteDecl) => paramNames(route.path).some((n) => !walk.notRecords?.includes(prefixOf(route.path, n)));
    for (const route of routes.filter((r) => r.auth === 'tenant' && namesRecord(r))) {
      const label = `${route.method.toUpperCase()} ${route.path}`;
      it(`${label}: 404 for another company's record`, async () => {
        const path = pathWith(route, (name) => seedsB.valueFor(route.path, name));
        const answer = await server.request(route.method.toUpperCase(), path + queryOf(route), { token: adminA, ...requestOf(route) });
        assert.equal(answer.status, 404, `${path}: ${JSON.stringify(answer.body)}`);
      });
    }
  });
}
