// What every Pacientes route shares: tag, permissions, params, problem responses, the answer of a write.
import type { CommandContext, CommandResult } from '../../../commands/handleCommand.js';
import { DomainError } from '../../../commands/decider.js';
import type { FieldProblem } from '../../../commands/pacientes/fieldRules.js';
import { commandContextOf } from '../../commandContext.js';
import { problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import { writeHeaders } from '../../recordHeaders.js';
import type { HttpResult, JsonSchema, RequestContext, ResponseDecl, TenantRequestContext } from '../../routeTypes.js';
import { noteView } from '../../../projections/pacientes/noteDoc.js';
import { patientView } from '../../../projections/pacientes/patientDoc.js';
import { IdSchema } from './patientSchemas.js';
import { noteAfterWrite, patientAfterWrite } from '../../../queries/pacientes/readModel.js';

export const TAG = 'Pacientes';
export const READ = 'pacientes:read';
export const WRITE = 'pacientes:write';

const params = (...names: string[]): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, IdSchema])),
});
export const PatientParams = params('id');
export const AccessParams = params('id', 'accessId');
export const CoverageParams = params('id', 'coverageId');
export const NoteParams = params('id', 'noteId');

/** Params or query a route does not declare. */
export type NoInput = Record<string, never>;
/** The params above as handlers read them. */
export type PatientIdParams = { id: string };
export type AccessIdParams = PatientIdParams & { accessId: string };
export type CoverageIdParams = PatientIdParams & { coverageId: string };
export type NoteIdParams = PatientIdParams & { noteId: string };

/** Query of the reads that accept minPosition (minPositionQueryProperty). */
export type MinPositionQuery = { minPosition?: string };
/** Query of the list routes (pageQueryProperties): the schema's default fills in limit. */
export type PageQuery = MinPositionQuery & { limit: number; cursor?: string };

export const RECORD_HEADERS = {
  ETag: 'W/"<revision>": send it back in If-Match to update',
  'X-Event-Position': 'Global position of the write: pass it as minPosition to read your write anywhere',
};
export const notFound404 = problem("No such patient in the selected company (another company's patient is reported the same way)");
export const conflict409 = problem('A business rule refused the change (code in type), or a concurrent change');
export const precondition412 = problem('If-Match does not match the current revision');
export const badCursor400 = problem('The cursor is malformed or belongs to another query (sort order)');
export const required428 = problem('If-Match is missing: send the ETag you last read');
export const unavailable503 = problem('The read model did not reach minPosition within the bounded wait; retry', {
  'Retry-After': 'Seconds to wait',
});
export const ok = (description: string, schema: JsonSchema, headers: Record<string, string> = RECORD_HEADERS): ResponseDecl => ({
  description,
  schema,
  headers,
});

export const tenantCtx = (ctx: RequestContext): TenantRequestContext => ctx as TenantRequestContext;

/** Command metadata of a request; the reason (if any) travels in every event's metadata. */
export const commandCtx = (ctx: RequestContext, reason?: string | null): CommandContext =>
  commandContextOf(ctx, { reason: reason ?? null });

/** Field rules broken in the decider answer exactly like schema violations: 422 with a pointer per field. */
export async function withFieldPointers<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const errors =
      err instanceof DomainError && err.code === 'validation-failed' ? (err.details?.errors as FieldProblem[] | undefined) : undefined;
    if (!errors) throw err;
    throw new ProblemError(
      422,
      'validation-failed',
      'Unprocessable Content',
      err instanceof Error ? err.message : 'Invalid data',
      {},
      errors.map((e) => ({ pointer: `/body/${e.field}`, message: e.message })),
    );
  }
}

/**
 * The answer of a patient write: the patient as the read model now has it, with ETag and position. A 201 (a new
 * patient, or a new entry of one: allergy, coverage, access...) points at the patient record, which lists the entry.
 */
export async function patientAnswer(
  ctx: RequestContext,
  patientId: string,
  result: CommandResult<unknown>,
  status: number,
): Promise<HttpResult> {
  const doc = await patientAfterWrite(tenantCtx(ctx), patientId, result);
  const position = result.position ?? BigInt(doc._position);
  const location = status === 201 ? `/pacientes/${patientId}` : undefined;
  return { status, body: patientView(doc), headers: writeHeaders({ revision: doc.revision, position, ...(location ? { location } : {}) }) };
}

export async function noteAnswer(
  ctx: RequestContext,
  noteId: string,
  result: CommandResult<unknown>,
  status: number,
  location?: string,
): Promise<HttpResult> {
  const { doc, versions } = await noteAfterWrite(tenantCtx(ctx), noteId, result);
  const position = result.position ?? BigInt(doc._position);
  return {
    status,
    body: noteView(doc, versions),
    headers: writeHeaders({ revision: doc.revision, position, ...(location ? { location } : {}) }),
  };
}
