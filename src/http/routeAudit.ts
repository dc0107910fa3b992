// The access audit's part of the route pipeline: the entries one read of an audited route leaves, answered or refused
// (403, 404), with the patients its answer named, split over entries of a bounded size.
import type { Principal } from '../auth/principal.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../logger.js';
import type { AccessAuditWriter } from './accessAudit.js';
import type { AccessOutcome } from './accessAuditEvents.js';
import { PreparedJson } from './preparedJson.js';
import type { AccessedRecord, HttpResult, RouteDecl, RouteInput } from './routeTypes.js';

/** Who read, from where, in which company (the request's, never the record owner's: a 404 stays in the reader's log). */
export interface Reader {
  principal: Principal | null;
  tenantId: string;
  correlationId: string;
  ip: string | null;
  userAgent: string | null;
  at: string;
}

const PATIENT_KEYS = new Set(['patientId', 'pacienteId']);
const PATIENT_OBJECTS = new Set(['patient', 'paciente']);

function collectPatientIds(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectPatientIds(item, into);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (PATIENT_KEYS.has(key) && typeof inner === 'string') into.add(inner);
    const id = PATIENT_OBJECTS.has(key) && inner && typeof inner === 'object' ? (inner as { id?: unknown }).id : undefined;
    if (typeof id === 'string') into.add(id);
    collectPatientIds(inner, into);
  }
}

/** Every patient a JSON value names: patientId / pacienteId values and the id of patient / paciente objects. */
export function patientIdsIn(value: unknown): string[] {
  const ids = new Set<string>();
  collectPatientIds(value, ids);
  return [...ids];
}

// A prepared page is sent many times: what the audit reads from it is worked out once.
const fromPrepared = new WeakMap<PreparedJson, { patients?: string[]; items?: string[] }>();

function derived(body: unknown, which: 'patients' | 'items', compute: (value: unknown) => string[]): string[] {
  if (!(body instanceof PreparedJson)) return compute(body);
  const memo = fromPrepared.get(body) ?? {};
  fromPrepared.set(body, memo);
  return (memo[which] ??= compute(JSON.parse(body.text)));
}

const itemIds = (value: unknown): string[] => {
  const items = (value as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items.map((i) => (i as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string') : [];
};

/** The ids of a page's items (a page of patients names them so). */
export const pageItemIds = (result: HttpResult): string[] => derived(result.body, 'items', itemIds);

const isJsonBody = (result: HttpResult): boolean =>
  result.body !== undefined && !Buffer.isBuffer(result.body) && (!result.contentType || /[/+]json\b/i.test(result.contentType));

/** The patients an answer names: the route's word, else what a non-JSON answer declared, else what its JSON holds. */
function patientsOf(result: HttpResult, declared: readonly string[] | undefined): readonly string[] {
  if (declared) return declared;
  if (result.auditPatientIds) return result.auditPatientIds;
  return isJsonBody(result) ? derived(result.body, 'patients', patientIdsIn) : [];
}

const outcomeOf = (status: number): AccessOutcome | null =>
  status >= 200 && status < 300 ? 'allowed' : status === 403 ? 'denied' : status === 404 ? 'not-found' : null;

/** Queues the entries of one read (never throws: a read never fails because of its audit). */
export function auditRead(
  deps: { accessAudit: AccessAuditWriter; logger: Logger },
  route: RouteDecl,
  input: RouteInput,
  result: HttpResult,
  reader: Reader,
): void {
  const outcome = outcomeOf(result.status);
  if (!route.auditAccess || outcome === null) return;
  try {
    const accessed = route.auditAccess(input, result);
    if (!accessed) return;
    const named = outcome === 'allowed' ? patientsOf(result, accessed.patientIds) : (accessed.patientIds ?? []);
    const patients = [...new Set(named.filter((id) => typeof id === 'string'))]; // a refused read's input is as sent: maybe absent
    const per = LIMITS.accessAudit.patientIdsPerEntry;
    const shares: (readonly string[] | undefined)[] = patients.length === 0 ? [undefined] : [];
    for (let from = 0; from < patients.length; from += per) shares.push(patients.slice(from, from + per));
    // A refused read names what the request asked for, as sent: kept short.
    const recordId = typeof accessed.recordId === 'string' ? accessed.recordId.slice(0, LIMITS.accessAudit.recordIdMaxChars) : null;
    for (const patientIds of shares) {
      deps.accessAudit.record({
        recordType: accessed.recordType,
        recordId,
        route: route.path,
        method: route.method.toUpperCase(),
        status: result.status,
        outcome,
        ...(patientIds ? { patientIds } : {}),
        actor: reader.principal?.userId ?? 'anonymous',
        sessionId: reader.principal?.sessionId ?? null,
        tenantId: reader.tenantId,
        ip: reader.ip,
        userAgent: reader.userAgent,
        correlationId: reader.correlationId,
        at: reader.at,
      });
    }
  } catch (err) {
    deps.logger.error('access audit hook failed', {
      route: `${route.method.toUpperCase()} ${route.path}`,
      correlationId: reader.correlationId,
      error: err,
    });
  }
}

/**
 * What a refused attempt at a write route names, for the audit of its refusal (403, 404): the group as the record type,
 * the `{id}` the request named, and under /pacientes/{id} that patient. A route that audits its reads declares its own.
 */
export function attemptedRecord(route: Pick<RouteDecl, 'path'>, input: RouteInput): AccessedRecord {
  const id = (input.params as Record<string, unknown> | undefined)?.id;
  const recordId = typeof id === 'string' ? id : null;
  const group = route.path.split('/')[1] ?? '';
  const patientIds = recordId !== null && route.path.startsWith('/pacientes/{id}') ? [recordId] : [];
  return { recordType: group, recordId, patientIds };
}
