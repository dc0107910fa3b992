// Structural checks of an OpenAPI 3.1 document, after the rules of the official schema
// (unknown members refused, parameters and headers carry a schema, responses a description...).
import assert from 'node:assert/strict';
import type { ApiJson } from '../support/harness.js';

type Json = Record<string, ApiJson>;
const OPERATION_KEYS = [
  'tags',
  'summary',
  'description',
  'externalDocs',
  'operationId',
  'parameters',
  'requestBody',
  'responses',
  'callbacks',
  'deprecated',
  'security',
  'servers',
];
const PARAMETER_KEYS = [
  'name',
  'in',
  'description',
  'required',
  'deprecated',
  'schema',
  'content',
  'style',
  'explode',
  'allowReserved',
  'allowEmptyValue',
  'example',
  'examples',
];
const RESPONSE_KEYS = ['description', 'headers', 'content', 'links'];
const HEADER_KEYS = ['description', 'required', 'deprecated', 'schema', 'content', 'style', 'explode', 'example', 'examples'];

const onlyKeys = (obj: Json, allowed: string[], where: string) => {
  for (const k of Object.keys(obj)) assert.ok(allowed.includes(k) || k.startsWith('x-'), `${where}: unexpected member '${k}'`);
};
const isSchema = (s: unknown) => typeof s === 'boolean' || (typeof s === 'object' && s !== null && !Array.isArray(s));

function checkHeader(h: Json, where: string, doc: Json) {
  if (h.$ref) {
    const name = String(h.$ref).replace('#/components/headers/', '');
    assert.ok(doc.components?.headers?.[name], `${where}: dangling ${h.$ref}`);
    return;
  }
  onlyKeys(h, HEADER_KEYS, where);
  assert.ok(isSchema(h.schema), `${where}: header without schema`);
}

/** A parameter, response or header as written, or the component its $ref names (a dangling one fails). */
export function deref(o: Json, doc: Json, where = 'reference'): Json {
  if (typeof o?.$ref !== 'string') return o;
  const target = o.$ref
    .split('/')
    .slice(1)
    .reduce((at: Json | undefined, k: string) => at?.[k], doc);
  assert.ok(target, `${where}: dangling ${o.$ref}`);
  return deref(target, doc, where);
}

export function assertOpenApiShape(doc: Json): void {
  assert.match(doc.openapi, /^3\.1\.\d+$/);
  assert.equal(typeof doc.info?.title, 'string');
  assert.equal(typeof doc.info?.version, 'string');
  for (const req of doc.security ?? [])
    for (const name of Object.keys(req)) assert.ok(doc.components.securitySchemes[name], `unknown security scheme ${name}`);
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    assert.match(path, /^\//);
    for (const [method, op] of Object.entries(item as Json)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method), where);
      onlyKeys(op, OPERATION_KEYS, where);
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const parameters = (op.parameters ?? []).map((p: Json) => deref(p, doc, where));
      const declared = parameters.filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
      assert.deepEqual(declared.sort(), pathParams.sort(), `${where}: path parameters`);
      for (const p of parameters) {
        onlyKeys(p, PARAMETER_KEYS, `${where} parameter ${p.name}`);
        assert.ok(['query', 'header', 'path', 'cookie'].includes(p.in));
        assert.ok(isSchema(p.schema), `${where} parameter ${p.name}: schema`);
        if (p.in === 'path') assert.equal(p.required, true);
      }
      const body = op.requestBody ? deref(op.requestBody, doc, `${where} body`) : undefined;
      if (body) assert.ok(body.content && Object.keys(body.content).length > 0, `${where}: requestBody.content`);
      assert.ok(Object.keys(op.responses).length > 0);
      for (const [status, written] of Object.entries(op.responses as Json)) {
        const res = deref(written, doc, `${where} ${status}`);
        assert.match(status, /^[1-5](?:[0-9]{2}|XX)$|^default$/);
        onlyKeys(res, RESPONSE_KEYS, `${where} ${status}`);
        assert.equal(typeof res.description, 'string');
        for (const [name, h] of Object.entries((res.headers ?? {}) as Json)) checkHeader(h, `${where} ${status} header ${name}`, doc);
        for (const [type, media] of Object.entries((res.content ?? {}) as Json)) {
          assert.match(type, /^[\w.+-]+\/[\w.+*-]+$/);
          if (media.schema?.$ref) {
            const name = String(media.schema.$ref).replace('#/components/schemas/', '');
            assert.ok(doc.components.schemas[name], `${where} ${status}: dangling ${media.schema.$ref}`);
          }
        }
      }
      for (const req of op.security ?? [])
        for (const name of Object.keys(req)) assert.ok(doc.components.securitySchemes[name], `${where}: unknown security scheme ${name}`);
    }
  }
}
