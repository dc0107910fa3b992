// The framework gives most operations the same answers (401, 500, 422...) and parameters (limit, cursor, minPosition,
// Idempotency-Key), some the same body: each one used by more than one operation is written once in components.
import { canonicalJson } from './openapiComponents.js';
import { titleOf } from './errors.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** Counts identical objects of one kind, names those used more than once (the most used wins the plain name; a problem
 * answer is named by its status, E404, E404_2...) and references them. */
function reuser(kind: 'responses' | 'parameters' | 'headers' | 'requestBodies') {
  const uses = new Map<string, number>();
  const bases = new Map<string, string>();
  const components: Record<string, Obj> = {};
  let names: Map<string, string> | null = null;
  const assign = (): Map<string, string> => {
    const out = new Map<string, string>();
    const shared = [...uses].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1]); // stable: first seen first on a tie
    for (const [c] of shared) {
      const base = bases.get(c)!;
      let n = base;
      for (let i = 2; n in components; i++) n = /\d$/.test(base) ? `${base}_${i}` : `${base}${i}`;
      out.set(c, n);
      components[n] = JSON.parse(c) as Obj;
    }
    return out;
  };
  return {
    components: () => {
      names ??= assign();
      return components;
    },
    count(o: Obj, name: string) {
      const c = canonicalJson(o);
      uses.set(c, (uses.get(c) ?? 0) + 1);
      if (!bases.has(c)) bases.set(c, name);
    },
    ref(o: Obj): Obj {
      names ??= assign();
      const n = names.get(canonicalJson(o));
      return n ? { $ref: `#/components/${kind}/${n}` } : o;
    },
  };
}

const schemaName = (response: Obj): string => {
  const media = isObj(response.content) ? Object.values(response.content)[0] : undefined;
  const ref = isObj(media) && isObj(media.schema) ? media.schema.$ref : undefined;
  return typeof ref === 'string' ? ref.split('/').pop()! : '';
};

const headersOf = (response: unknown): Obj => (isObj(response) && isObj(response.headers) ? response.headers : {});

export interface ReusedParts {
  responses: Record<string, Obj>;
  requestBodies: Record<string, Obj>;
  parameters: Record<string, Obj>;
  headers: Record<string, Obj>;
}

/** Rewrites the operations of `paths` in place and returns the shared responses, parameters and response headers. */
export function reuseAnswersAndParameters(paths: Record<string, Obj>): ReusedParts {
  const operations = Object.values(paths).flatMap((item) => Object.values(item).filter(isObj));
  const responses = reuser('responses');
  const parameters = reuser('parameters');
  const headers = reuser('headers');
  const bodies = reuser('requestBodies');
  const answersOf = (op: Obj) => Object.values(isObj(op.responses) ? op.responses : {});
  for (const op of operations)
    for (const r of answersOf(op))
      for (const [name, h] of Object.entries(headersOf(r))) if (isObj(h) && !h.$ref) headers.count(h, pascal(name));
  for (const op of operations)
    for (const r of answersOf(op)) {
      const hs = headersOf(r);
      for (const [name, h] of Object.entries(hs)) if (isObj(h) && !h.$ref) hs[name] = headers.ref(h);
    }
  // A parameter is named after itself (Limit, IfMatch); with its place too when a name is used in two places.
  const placesOf = new Map<string, Set<unknown>>();
  for (const op of operations)
    for (const p of Array.isArray(op.parameters) ? op.parameters.filter(isObj) : [])
      placesOf.set(String(p.name), (placesOf.get(String(p.name)) ?? new Set()).add(p.in));
  const parameterName = (p: Obj): string =>
    pascal(placesOf.get(String(p.name))!.size > 1 ? `${String(p.name)} ${String(p.in)}` : String(p.name));
  for (const op of operations) {
    for (const [status, r] of Object.entries(isObj(op.responses) ? op.responses : {}))
      if (isObj(r)) responses.count(r, Number(status) < 300 ? `${schemaName(r)}${pascal(titleOf(Number(status)))}` : `E${status}`);
    for (const p of Array.isArray(op.parameters) ? op.parameters : []) if (isObj(p)) parameters.count(p, parameterName(p));
    if (isObj(op.requestBody)) bodies.count(op.requestBody, schemaName(op.requestBody) || `${pascal(String(op.operationId))}Body`);
  }
  for (const op of operations) {
    const answers = isObj(op.responses) ? op.responses : {};
    for (const [status, r] of Object.entries(answers)) if (isObj(r)) answers[status] = responses.ref(r);
    if (Array.isArray(op.parameters)) op.parameters = op.parameters.map((p: unknown) => (isObj(p) ? parameters.ref(p) : p));
    if (isObj(op.requestBody)) op.requestBody = bodies.ref(op.requestBody);
  }
  return {
    responses: responses.components(),
    requestBodies: bodies.components(),
    parameters: parameters.components(),
    headers: headers.components(),
  };
}
