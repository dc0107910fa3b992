// Finishes the document's paths: enums typed, shared shapes hoisted into components.schemas, and an example request
// body and 2xx answer on every operation (components.examples, shared when two operations show the same value).
import { canonicalJson, schemaHoister, typedEnums } from './openapiComponents.js';
import { declaredSchemaName } from './openapiSchemaNames.js';
import { exampleFor } from './openapiExamples.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const pascal = (s: string): string => s[0]!.toUpperCase() + s.slice(1);

/** Every media type object of an operation, with the name its schema gets from the operation when it has none. */
function mediaOf(op: Obj): { media: Obj; name: string; example: boolean }[] {
  const id = pascal(String(op.operationId));
  const out: { media: Obj; name: string; example: boolean }[] = [];
  const body = isObj(op.requestBody) && isObj(op.requestBody.content) ? op.requestBody.content : {};
  for (const [type, media] of Object.entries(body))
    if (isObj(media)) out.push({ media, name: `${id}Body`, example: type === 'application/json' });
  for (const [status, response] of Object.entries(isObj(op.responses) ? op.responses : {})) {
    const content = isObj(response) && isObj(response.content) ? response.content : {};
    const success = status.startsWith('2');
    for (const [type, media] of Object.entries(content))
      if (isObj(media)) out.push({ media, name: `${id}${success ? 'Response' : status}`, example: success && /json$/.test(type) });
  }
  return out;
}

function parametersOf(op: Obj): Obj[] {
  const headers = Object.values(isObj(op.responses) ? op.responses : {}).flatMap((r) =>
    isObj(r) && isObj(r.headers) ? Object.values(r.headers).filter(isObj) : [],
  );
  return [...(Array.isArray(op.parameters) ? op.parameters.filter(isObj) : []), ...headers];
}

const SHORT_EXAMPLE = 80;

export interface NamedShapes {
  schemas: Record<string, Obj>;
  examples: Record<string, Obj>;
}

/** Rewrites the operations of `paths` in place (they are the document's own copies) and returns their components. */
export function nameShapes(paths: Record<string, Obj>, seeds: Record<string, Obj>): NamedShapes {
  const operations = Object.values(paths).flatMap((item) => Object.values(item).filter(isObj));
  const typedSeeds = Object.fromEntries(Object.entries(seeds).map(([n, s]) => [n, typedEnums(s)]));
  const hoister = schemaHoister(typedSeeds, declaredSchemaName);
  for (const op of operations) {
    for (const p of parametersOf(op)) if (isObj(p.schema)) hoister.count((p.schema = typedEnums(p.schema)));
    for (const { media } of mediaOf(op))
      if (isObj(media.schema) && !media.schema.$ref) hoister.count((media.schema = typedEnums(media.schema)));
  }
  const examples: Record<string, Obj> = {};
  const exampleNames = new Map<string, string>();
  const resolve = (ref: string): unknown => hoister.components()[ref.split('/').pop()!];
  // Bodies and answers first: a shape shared with a parameter is named after the record it belongs to (PatientViewStatus).
  const shown: { media: Obj; value: unknown; key: string; name: string; ref: string }[] = [];
  for (const op of operations) {
    for (const { media, name, example } of mediaOf(op)) {
      if (!isObj(media.schema)) continue;
      const schema = media.schema.$ref ? media.schema : hoister.rewrite(media.schema, { name });
      media.schema = schema;
      if (!example) continue;
      const value = exampleFor(schema, resolve);
      const ref = isObj(schema) && typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : name;
      shown.push({ media, value, key: canonicalJson(value), name, ref });
    }
  }
  // An example shown by several operations is a component; one shown once, or short (a reference would be longer), is
  // written in place.
  const uses = new Map<string, number>();
  for (const { key } of shown) uses.set(key, (uses.get(key) ?? 0) + 1);
  for (const { media, value, key, name, ref } of shown) {
    if (key.length <= SHORT_EXAMPLE || uses.get(key)! < 2) {
      media.example = value;
      continue;
    }
    let exampleName = exampleNames.get(key);
    if (!exampleName) {
      exampleName = ref in examples ? name : ref;
      for (let i = 2; exampleName in examples; i++) exampleName = `${ref}${i}`;
      examples[exampleName] = { summary: `A valid ${ref}`, value };
      exampleNames.set(key, exampleName);
    }
    media.examples = { example: { $ref: `#/components/examples/${exampleName}` } };
  }
  for (const op of operations)
    for (const p of parametersOf(op)) if (isObj(p.schema)) p.schema = hoister.rewrite(p.schema, { name: pascal(String(p.name)) });
  return { schemas: hoister.components(), examples };
}
