// What every record route of /generador/m/{code} does first: find the module the company serves under that code (404
// before anything else), check the caller's `mod.<code>:<action>` (403 naming it), and the generic schemas the
// service's own document declares (each company's module has its exact schemas in /generador/openapi.json).
import Type from 'typebox';
import {
  FIELD_NAME_PATTERN,
  MODULE_CODE_PATTERN,
  modulePermission,
  STATE_NAME_PATTERN,
  type ModuleAction,
} from '../../../commands/generador/shared/definitionTypes.js';
import { MinPositionField, PageQueryFields } from '../../commonSchemas.js';
import { mayOnModule } from '../../../commands/generador/shared/modulePermissions.js';
import type { ModuleDoc } from '../../../projections/generador/moduleDoc.js';
import { moduleByCode } from '../../../queries/generador/modules.js';
import { forbidden, notFoundProblem } from '../../../problems.js';
import { DomainError } from '../../../commands/decider.js';
import type { RequestContext } from '../../routeTypes.js';
import { IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';
import { tenantCtx } from '../shared/recordSupport.js';

const NO_MODULE = 'No such module in the selected company (a draft, or another company’s, is reported the same way)';

/**
 * The module served under `code` (published or retired) once the caller may `action` on it. Unknown, draft and
 * another company's modules answer 404 before the permission is checked (nothing is revealed); a served module the
 * caller may not act on answers 403 naming the permission, like the built-in groups. A write to a retired module: 409.
 */
export async function servedModuleFor(ctx: RequestContext, code: string, action: ModuleAction, writes = false): Promise<ModuleDoc> {
  const scope = tenantCtx(ctx);
  const module = await moduleByCode(scope, code);
  if (!module || module.status === 'draft') throw notFoundProblem(NO_MODULE);
  if (!mayOnModule(scope.auth.permissions, code, action)) throw forbidden(modulePermission(code, action));
  if (writes && module.status === 'retired') {
    throw new DomainError('module-retired', `the module ${code} is retired: its records are read-only`);
  }
  return module;
}

export const CodeSchema = Type.String({ pattern: MODULE_CODE_PATTERN, description: "The module's code" });
export const ModuleParams = Type.Object({ code: CodeSchema }, { additionalProperties: false });
export const RecordParams = Type.Object({ code: CodeSchema, id: IdSchema }, { additionalProperties: false });
export const TransitionParams = Type.Object(
  { code: CodeSchema, id: IdSchema, transition: text(60, "A transition of the module's states") },
  { additionalProperties: false },
);

const Values = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

export const CreateRecordBody = Type.Object(
  {
    patientId: Type.Optional({ ...IdSchema, description: 'Required iff the module is patient-linked' }),
    values: Values("The record's values by field name"),
    reason: Type.Optional(ReasonSchema),
  },
  { additionalProperties: false },
);
export const PatchRecordBody = Type.Object(
  { values: Values('Fields to set; a null clears an optional field'), reason: ReasonSchema },
  { additionalProperties: false },
);
export const TransitionBody = Type.Object(
  {
    reason: Type.Optional(ReasonSchema),
    code: Type.Optional(
      Type.String({
        pattern: '^[0-9]{6}$',
        maxLength: 6,
        description: 'Signing transitions: a fresh step-up code (a person, never an API client)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const ArchiveBody = Type.Object({ reason: ReasonSchema }, { additionalProperties: false });

export const RecordView = Type.Object(
  {
    id: IdSchema,
    module: Type.String(),
    revision: Type.Integer({ minimum: 0 }),
    version: Type.Object({ major: Type.Integer(), minor: Type.Optional(Type.Integer()) }),
    patientId: Type.Optional(Type.Union([IdSchema, Type.Null()])),
    state: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    archived: Type.Boolean(),
    values: Values("Values mapped onto the module's current major"),
    signedAt: Type.Optional(Type.String({ format: 'date-time' })),
    signedBy: Type.Optional(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
  },
  { additionalProperties: false, title: 'ModuleRecord' },
);

/** The list query's own names; every other name is one of the module's filter fields. */
export const OWN_QUERY = new Set(['patientId', 'state', 'archived', 'sort', 'order', 'limit', 'cursor', 'minPosition', 'updatedSince']);

export const ListQuery = Type.Object(
  {
    patientId: Type.Optional(Type.String({ format: 'uuid', description: "Only this patient's records" })),
    state: Type.Optional(Type.String({ pattern: STATE_NAME_PATTERN, maxLength: 40, description: 'Only records in this state' })),
    archived: Type.Optional(Type.Boolean({ description: 'true: only archived records; false or absent: the others' })),
    sort: Type.Optional(Type.String({ maxLength: 60, description: 'A sort field, createdAt (default) or updatedAt' })),
    order: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'desc when absent: newest first' })),
    ...PageQueryFields,
    ...MinPositionField,
  },
  {
    // Any other name is a filter field of the module (a field name, never an operator): its own schema checks it.
    additionalProperties: Type.String({ maxLength: 200, description: 'A filter field: its value' }),
    propertyNames: { pattern: FIELD_NAME_PATTERN },
  },
);
