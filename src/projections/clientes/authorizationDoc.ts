// The payer authorization read model: one document per authorization, folded with the decider's own evolve; used and
// remaining are stored, the status (expired needs the company's today) is derived when read.
import type { AuthorizationEvent, AuthorizationTerms } from '../../commands/clientes/authorizationEvents.js';
import {
  evolveAuthorization,
  initialAuthorizationState,
  remainingOf,
  reservedOf,
  usedOf,
  type AuthorizationState,
} from '../../commands/clientes/shared/authorizationState.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { idOfStream } from './clientDoc.js';

export type AuthorizationDoc = ProjectedDoc &
  AuthorizationTerms & {
    /** Session id -> the date its unit was consumed for. */
    consumptions: Record<string, string>;
    /** Session id -> the date of a running session holding a unit (issue 21); absent on documents folded before it. */
    reservations?: Record<string, string>;
    used: number;
    reserved?: number;
    remaining: number;
    voided: boolean;
    voidReason: string | null;
    revision: number;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
  };

export function authorizationStateOf(doc: AuthorizationDoc): AuthorizationState {
  const { clientId, patientId, code, validFrom, validTo, sessionsAuthorized } = doc;
  return {
    terms: { authorizationId: doc.id, clientId, patientId, code, validFrom, validTo, sessionsAuthorized },
    consumptions: doc.consumptions,
    reservations: doc.reservations ?? {},
    voided: doc.voided ? { reason: doc.voidReason ?? '' } : null,
  };
}

export function foldAuthorization(doc: AuthorizationDoc | null, recorded: RecordedEvent): AuthorizationDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as AuthorizationEvent;
  if (!doc && event.type !== 'AuthorizationIssued') return null;
  if (doc && event.type === 'AuthorizationIssued') return doc;
  const next = evolveAuthorization(doc ? authorizationStateOf(doc) : initialAuthorizationState, event);
  if (!next.terms) return doc;
  const { authorizationId: _id, ...terms } = next.terms;
  const kept = doc ? { tenantId: doc.tenantId, id: doc.id, createdAt: doc.createdAt, createdBy: doc.createdBy } : null;
  return {
    ...(kept ?? {
      tenantId: tenantOfStream(recorded.streamName),
      id: idOfStream(recorded.streamName),
      createdAt: recorded.metadata.occurredAt,
      createdBy: recorded.metadata.actor,
    }),
    ...terms,
    consumptions: next.consumptions,
    reservations: next.reservations,
    used: usedOf(next),
    reserved: reservedOf(next),
    remaining: remainingOf(next),
    voided: next.voided !== null,
    voidReason: next.voided?.reason ?? null,
    revision: recorded.revision,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
}
