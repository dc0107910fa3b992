// A module's validators, compiled once per (company, module, major.minor) and kept in a bounded LRU: a record request
// validates with compiled code, never compiles (ISSUE26 item 5). Errors answer the service's 422 with field pointers.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { ModuleDefinition, ModuleVersion, RecordValues } from '../../../commands/generador/shared/definitionTypes.js';
import {
  createBodySchema,
  listFilterProperties,
  patchBodySchema,
  versionKey,
  type Schema,
} from '../../../commands/generador/shared/moduleJsonSchemas.js';
import { MinPositionField, PageQueryFields } from '../../commonSchemas.js';
import { withTextRules } from '../../textRules.js';
import { fieldErrors, newAjv, validationProblem } from '../../validation.js';

/** What of a module the validators need (a ModuleDoc has it). */
export interface ModuleVersionRef {
  tenantId: string;
  code: string;
  version: ModuleVersion;
  definition: ModuleDefinition;
}

export interface ModuleCreateBody {
  patientId?: string;
  values: RecordValues;
  reason?: string;
}
export interface ModulePatchBody {
  values: Record<string, RecordValues[string] | null>;
  reason: string;
}
/** A list query, coerced from the URL's strings; filters keep their field's name. */
export type ModuleListQuery = Record<string, unknown> & { limit: number; cursor?: string; minPosition?: string; updatedSince?: string };

export interface ModuleValidators {
  /** The create body, defaults filled in (in place); a 422 naming `/body/values/<field>` when invalid. */
  create(body: unknown): ModuleCreateBody;
  patch(body: unknown): ModulePatchBody;
  /** A copy of the query, strings coerced to the declared types and limit defaulted; a 422 naming `/query/<name>`. */
  query(raw: Record<string, unknown>): ModuleListQuery;
}

/** The list's whole query: its filters, the page and read-your-writes fields of every list. */
export const listQuerySchema = (def: ModuleDefinition): Schema => ({
  type: 'object',
  properties: { ...listFilterProperties(def), ...PageQueryFields, ...MinPositionField },
  additionalProperties: false,
});

// Bodies are taken as sent (defaults filled in); URL strings are coerced, as for the built-in routes (validation.ts).
const bodyAjv = newAjv({ coerce: false, defaults: true });
const urlAjv = newAjv({ coerce: true, defaults: true });

interface Entry {
  validators: ModuleValidators;
  release(): void;
}

function check<T>(validate: ValidateFunction, prefix: string, value: unknown): T {
  if (!validate(value)) throw validationProblem(fieldErrors(prefix, validate.errors));
  return value as T;
}

function compileEntry(module: ModuleVersionRef): Entry {
  const compiled: [Ajv2020, Schema][] = [];
  const compile = (ajv: Ajv2020, schema: Schema): ValidateFunction => {
    const ready = withTextRules(schema);
    compiled.push([ajv, ready]);
    return ajv.compile(ready);
  };
  const def = module.definition;
  const create = compile(bodyAjv, createBodySchema(def));
  const patch = compile(bodyAjv, patchBodySchema(def));
  const query = compile(urlAjv, listQuerySchema(def));
  return {
    validators: {
      create: (body) => check(create, '/body', body === undefined ? {} : body),
      patch: (body) => check(patch, '/body', body === undefined ? {} : body),
      query: (raw) => check(query, '/query', { ...raw }),
    },
    // Ajv keeps every schema it compiled: an evicted version leaves its cache too.
    release: () => compiled.forEach(([ajv, schema]) => ajv.removeSchema(schema)),
  };
}

/** A bounded LRU of compiled module validators; `compiles` counts the compilations (a cache hit never compiles). */
export class ModuleValidatorCache {
  private readonly entries = new Map<string, Entry>();
  compiles = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  validators(module: ModuleVersionRef): ModuleValidators {
    const key = versionKey(module.tenantId, module.code, module.version);
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key); // most recently used last
    } else {
      entry = compileEntry(module);
      this.compiles++;
      while (this.entries.size >= this.capacity) {
        const [oldest, old] = this.entries.entries().next().value as [string, Entry];
        this.entries.delete(oldest);
        old.release();
      }
    }
    this.entries.set(key, entry);
    return entry.validators;
  }
}

/** The process's cache: room for every module version in use across companies, a few KB each. */
export const MODULE_VALIDATOR_CAPACITY = 1000;
export const moduleValidatorCache = new ModuleValidatorCache(MODULE_VALIDATOR_CAPACITY);

/** The validators of a module's version (compiled on its first use in this process). */
export const moduleValidators = (module: ModuleVersionRef): ModuleValidators => moduleValidatorCache.validators(module);
