// One event as integrators receive it (the change feed, webhook payloads), who may see it, and what never leaves.
import Type, { type Static } from 'typebox';
import { aggregateIdOfStream, categoryOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import { MODULE_RECORD_CATEGORY } from '../../commands/generador/record/moduleRecordEvents.js';
import { mayOnModule } from '../../commands/generador/shared/modulePermissions.js';

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const FeedEventSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Event id (deduplicate on it)' }),
    position: Type.String({ pattern: '^[0-9]+$', description: 'Position in the log' }),
    type: Type.String(),
    recordType: Type.String({ description: 'Stream category' }),
    recordId: Type.String(),
    patientId: nullableString('Owning patient'),
    occurredAt: Type.String({ format: 'date-time' }),
    actor: Type.String(),
    correlationId: Type.String(),
    reason: nullableString('Why'),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'Secrets removed' }),
  },
  { additionalProperties: false },
);
export type FeedEvent = Static<typeof FeedEventSchema>;

/** Shown per event: a company module's records to those who may read that module (`mod.<module>:read` or `mod.*`). */
export const PER_MODULE = 'per-module' as const;

/** Never shown: bookkeeping of the service (reads it audited, idempotent replays) and unique-value claims. */
export const NEVER = 'never' as const;

/**
 * Fail-closed: the permissions (all of them) a principal needs to see a category's events; a category absent here is
 * shown to nobody (src/queries/sistema/feedEvents.test.ts fails for a category written by the service without a decision).
 */
export const FEED_VISIBILITY: Readonly<Record<string, readonly string[] | typeof NEVER | typeof PER_MODULE>> = {
  patient: ['pacientes:read'],
  nursingNote: ['pacientes:notes'],
  legalHold: ['pacientes:read'],
  dialysisSession: ['dialisis:read'],
  sessionConsequences: ['dialisis:read'],
  prescription: ['dialisis:read'],
  shift: ['dialisis:read'],
  shiftDay: ['dialisis:read'],
  standingPlans: ['dialisis:read'],
  dialyzer: ['filtros-dialisis:read'],
  arterialLine: ['lineas-arteriales:read'],
  venousLine: ['lineas-venosas:read'],
  client: ['clientes:read'],
  payerAuthorization: ['clientes:read'],
  product: ['productos:read'],
  stock: ['productos:read'],
  stockLot: ['productos:read'],
  warehouse: ['productos:read'],
  supplyKit: ['productos:read'],
  machine: ['monitores:read'],
  staff: ['colaboradores:read'],
  jobPosition: ['cargos-laborales:read'],
  location: ['empresas:read'],
  policy: ['empresas:read'],
  generatedModule: ['generador:read'],
  // Decided per event by its module (mod.<module>:read): eventVisible.
  [MODULE_RECORD_CATEGORY]: PER_MODULE,
  // The service's bookkeeping: audited reads, idempotent answers, guards of running sessions.
  accessLog: NEVER,
  idempotency: NEVER,
  patientRunningSession: NEVER,
  // Unique-value claims (uniqueClaim.ts): a value and the record holding it, never a change of a record.
  patientDocument: NEVER,
  dialyzerSerial: NEVER,
  arterialLineSerial: NEVER,
  venousLineSerial: NEVER,
  clientTaxId: NEVER,
  payerAuthorizationCode: NEVER,
  productCode: NEVER,
  productBarcode: NEVER,
  machineCode: NEVER,
  machineSerial: NEVER,
  staffDocument: NEVER,
  staffUser: NEVER,
  jobPositionCode: NEVER,
  locationRegistryCode: NEVER,
  // The service's own settings and acts on the company's data: their history and the audit trail show them.
  webhookEndpoint: NEVER,
  companyExport: NEVER,
  // A person's dashboard layout (and the company default): screen arrangement, not a record of care or of the company.
  dashboard: NEVER,
};

/** Whether a category's events go to integrators at all (to those whose permissions allow; webhooks: the administrator's). */
export const feedShown = (category: string): boolean =>
  !category.endsWith('Snapshot') && Object.hasOwn(FEED_VISIBILITY, category) && FEED_VISIBILITY[category] !== NEVER;

/**
 * Whether the holder of `permissions` may see events of streams of this category (snapshots repeat their stream: never).
 * A category decided per event (PER_MODULE) is not visible by category alone: see eventVisible.
 */
export function feedVisible(category: string, permissions: ReadonlySet<string>): boolean {
  if (category.endsWith('Snapshot') || !Object.hasOwn(FEED_VISIBILITY, category)) return false;
  const needs = FEED_VISIBILITY[category]!;
  return needs !== NEVER && needs !== PER_MODULE && needs.every((p) => permissions.has(p));
}

/** Whether the holder of `permissions` may see this event: by its category, or by its module for a module's records. */
export function eventVisible(event: RecordedEvent, permissions: ReadonlySet<string>): boolean {
  const category = categoryOfStream(event.streamName);
  if (FEED_VISIBILITY[category] !== PER_MODULE || !Object.hasOwn(FEED_VISIBILITY, category)) return feedVisible(category, permissions);
  const module = event.data.module;
  return typeof module === 'string' && mayOnModule(permissions, module, 'read');
}

/** Field names that carry a secret or what stands for one (hashes of tokens, encrypted secrets, passwords). */
const SECRET_FIELD = /(hash|secret|password|ciphertext|token)$|^encrypted/i;

/** The value without any field that carries a secret, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!SECRET_FIELD.test(key)) out[key] = withoutSecrets(inner);
  return out;
}

/** The patient an event's own data names at its top level (the stream's owner is the caller's to know better). */
export function patientNamedBy(event: RecordedEvent): string | null {
  if (categoryOfStream(event.streamName) === PATIENT_CATEGORY) return aggregateIdOfStream(event.streamName);
  const d = event.data;
  const id = typeof d.patientId === 'string' ? d.patientId : typeof d.pacienteId === 'string' ? d.pacienteId : null;
  return id && id !== '' ? id : null;
}

/** The event as integrators see it; `patientId` is the stream's owner when known (the audit trail learns it). */
export function toFeedEvent(event: RecordedEvent, patientId: string | null): FeedEvent {
  const m = event.metadata;
  return {
    id: event.id,
    position: event.position.toString(),
    type: event.type,
    recordType: categoryOfStream(event.streamName),
    recordId: aggregateIdOfStream(event.streamName),
    patientId,
    occurredAt: m.occurredAt,
    actor: m.actor,
    correlationId: m.correlationId,
    reason: m.reason,
    data: withoutSecrets(event.data) as Record<string, unknown>,
  };
}
