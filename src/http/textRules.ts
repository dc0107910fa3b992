// One rule for every string a request carries: no control characters, no bidirectional overrides or isolates
// (the "Trojan Source" set that makes a name read differently than it sorts and searches), no lone surrogates.
// Free text (a schema marked 'x-free-text') may also hold tab and line breaks.
import type { JsonSchema } from './routeTypes.js';

/** Schema annotation of a free-text field: tab, LF and CR are allowed there. */
export const FREE_TEXT = 'x-free-text';
/** The keyword the validation adds to every string schema of a request. */
export const TEXT_RULE = 'plainText';

/* eslint-disable no-control-regex -- these two patterns exist to find control characters */
const CONTROLS_AND_OVERRIDES = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDFFF]/u;
const CONTROLS_BUT_LAYOUT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDFFF]/u;
/* eslint-enable no-control-regex */

export type TextMode = 'line' | 'free';

/** True when `value` may be stored as a string of this kind. */
export function acceptableText(value: string, mode: TextMode): boolean {
  return !(mode === 'free' ? CONTROLS_BUT_LAYOUT : CONTROLS_AND_OVERRIDES).test(value);
}

export const TEXT_RULE_MESSAGE: Record<TextMode, string> = {
  line: 'must not contain control characters (tab and line breaks included), bidirectional overrides or invalid Unicode',
  free: 'must not contain control characters other than tab and line breaks, bidirectional overrides or invalid Unicode',
};

// Keywords whose values are data or names, not subschemas.
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', 'description', 'title', 'pattern', 'format', FREE_TEXT]);

// Keywords whose values map names (chosen by the schema's author, e.g. a body field called `title`) to subschemas.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

const isString = (schema: Record<string, unknown>): boolean =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** A copy of a request schema with the text rule on every string it accepts (the declaration stays as written). */
export function withTextRules(schema: JsonSchema): JsonSchema {
  const walkMap = (node: unknown): unknown =>
    node && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).map(([name, value]) => [name, walk(value)]))
      : node;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const source = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source))
      out[key] = SCHEMA_MAPS.has(key) ? walkMap(value) : DATA_KEYWORDS.has(key) ? value : walk(value);
    if (isString(source) && !(TEXT_RULE in source)) out[TEXT_RULE] = source[FREE_TEXT] === true ? 'free' : 'line';
    return out;
  };
  return walk(schema) as JsonSchema;
}
