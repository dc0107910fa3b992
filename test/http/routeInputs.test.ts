// Route walk: nothing a client puts in a path or query string can reach a read-store filter as an operator. Every
// declared parameter is a scalar (or a list of scalars), no undeclared one passes, and every list that takes a
// cursor answers its next one at the top level (where the pipeline seals it) and documents the 400 of a bad one.
import assert from 'node:assert/strict';
import { registeredGroups } from '../../src/http/groups.js';
import type { JsonSchema, RouteDecl } from '../../src/http/routeTypes.js';

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'null']);

/** Where a schema admits something other than a scalar or a list of scalars. */
function nonScalar(schema: JsonSchema | undefined, at: string): string[] {
  if (!schema) return [`${at}: no schema`];
  if (Array.isArray(schema.enum)) return schema.enum.every((v) => v === null || typeof v !== 'object') ? [] : [`${at}: enum of objects`];
  if ('const' in schema) return schema.const === null || typeof schema.const !== 'object' ? [] : [`${at}: const object`];
  const alternatives = [...((schema.anyOf as JsonSchema[]) ?? []), ...((schema.oneOf as JsonSchema[]) ?? [])];
  if (alternatives.length > 0 && schema.type === undefined) return alternatives.flatMap((s, i) => nonScalar(s, `${at}|${i}`));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return types.flatMap((type) => {
    if (SCALAR_TYPES.has(type)) return [];
    if (type === 'array') return nonScalar(schema.items as JsonSchema | undefined, `${at}[]`);
    return [`${at}: type ${String(type)}`];
  });
}

function urlInputProblems(route: RouteDecl): string[] {
  const problems: string[] = [];
  for (const part of ['params', 'query'] as const) {
    const schema = route[part];
    if (!schema) continue;
    // An undeclared name passes only as a scalar named like a field (a Generador module's filter fields, which the
    // module's own compiled schema then checks), never as an object or an operator.
    const extra = schema.additionalProperties as JsonSchema | boolean | undefined;
    const fieldNamed = typeof extra === 'object' && nonScalar(extra, 'x').length === 0 && schema.propertyNames !== undefined;
    if (extra !== false && !fieldNamed) problems.push(`${part} admits undeclared names`);
    for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema>) ?? {})) {
      if (name.startsWith('$') || name.includes('.')) problems.push(`${part}.${name}: an operator-like name`);
      problems.push(...nonScalar(property, `${part}.${name}`));
    }
  }
  return problems;
}

const routes = (): RouteDecl[] => registeredGroups().flatMap((group) => group.routes);
const label = (route: RouteDecl): string => `${route.method.toUpperCase()} ${route.path}`;

describe('route inputs from the URL', () => {
  it('are scalars or lists of scalars, and nothing undeclared passes', () => {
    const problems = routes().flatMap((route) => urlInputProblems(route).map((p) => `${label(route)} ${p}`));
    assert.deepEqual(problems, []);
  });

  it('the walk catches an object-typed parameter', () => {
    const route = {
      method: 'get',
      path: '/x',
      query: { type: 'object', additionalProperties: false, properties: { where: { type: 'object' }, 'a.b': { type: 'string' } } },
    } as unknown as RouteDecl;
    assert.deepEqual(urlInputProblems(route), ['query.where: type object', 'query.a.b: an operator-like name']);
  });

  it('every list taking a cursor answers nextCursor at the top level and documents the 400 of a bad cursor', () => {
    const lists = routes().filter((route) => Object.hasOwn((route.query?.properties as object | undefined) ?? {}, 'cursor'));
    assert.ok(lists.length > 30, `${lists.length} lists`);
    const problems = lists.flatMap((route) => {
      const ok = route.responses[200]?.schema;
      const found: string[] = [];
      if (!Object.hasOwn((ok?.properties as object | undefined) ?? {}, 'nextCursor'))
        found.push(`${label(route)} has no top-level nextCursor`);
      if (!route.responses[400]) found.push(`${label(route)} does not document 400`);
      return found;
    });
    assert.deepEqual(problems, []);
  });
});
