// The framework gives most operations the same answers (401, 500, 422...) and parameters (limit, cursor, minPosition,
// Idempotency-Key): each one used by more than one operation is written once in components and referenced by $ref.
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

/** Counts, names (first use wins the plain name) and references identical objects of one kind. */
function reuser(kind: 'responses' | 'parameters' | 'headers') {
  const uses = new Map<string, number>();
  const names = new Map<string, string>();
  const components: Record<string, Obj> = {};
  return {
    components,
    count(o: Obj) {
      const c = canonicalJson(o);
      uses.set(c, (uses.get(c) ?? 0) + 1);
    },
    ref(o: Obj, name: string): Obj {
      const c = canonicalJson(o);
      if ((uses.get(c) ?? 0) < 2) return o;
      let n = names.get(c);
      if (!n) {
        n = name;
        for (let i = 2; n in components; i++) n = `${name}${i}`;
        names.set(c, n);
        components[n] = o;
      }
      return { $ref: `#/components/${kind}/${n}` };
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
  parameters: Record<string, Obj>;
  headers: Record<string, Obj>;
}

/** Rewrites the operations of `paths` in place and returns the shared responses, parameters and response headers. */
export function reuseAnswersAndParameters(paths: Record<string, Obj>): ReusedParts {
  const operations = Object.values(paths).flatMap((item) => Object.values(item).filter(isObj));
  const responses = reuser('responses');
  const parameters = reuser('parameters');
  const headers = reuser('headers');
  const answersOf = (op: Obj) => Object.values(isObj(op.responses) ? op.responses : {});
  for (const op of operations)
    for (const r of answersOf(op)) for (const h of Object.values(headersOf(r))) if (isObj(h) && !h.$ref) headers.count(h);
  for (const op of operations)
    for (const r of answersOf(op)) {
      const hs = headersOf(r);
      for (const [name, h] of Object.entries(hs)) if (isObj(h) && !h.$ref) hs[name] = headers.ref(h, pascal(name));
    }
  for (const op of operations) {
    for (const r of Object.values(isObj(op.responses) ? op.responses : {})) if (isObj(r)) responses.count(r);
    for (const p of Array.isArray(op.parameters) ? op.parameters : []) if (isObj(p)) parameters.count(p);
  }
  for (const op of operations) {
    const answers = isObj(op.responses) ? op.responses : {};
    for (const [status, r] of Object.entries(answers))
      if (isObj(r)) answers[status] = responses.ref(r, `${Number(status) < 300 ? schemaName(r) : ''}${pascal(titleOf(Number(status)))}`);
    if (Array.isArray(op.parameters))
      op.parameters = op.parameters.map((p: unknown) => (isObj(p) ? parameters.ref(p, pascal(`${String(p.name)} ${String(p.in)}`)) : p));
  }
  return { responses: responses.components, parameters: parameters.components, headers: headers.components };
}
