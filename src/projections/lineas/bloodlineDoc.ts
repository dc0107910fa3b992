// The bloodline read model: one document per line (both kinds), folded from its stream. Pure, so the projection and
// the read-your-writes fallback build the same document.
import type {
  BloodlineEvent,
  DiscardReason,
  LineFields,
  LineStatus,
  LineType,
  ResidualResult,
} from '../../commands/lineas/bloodlineEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type BloodlineDoc = ProjectedDoc &
  LineFields & {
    lineType: LineType;
    /** Revision of the line's stream: the ETag. */
    revision: number;
    status: LineStatus;
    patientId?: string;
    partnerId?: string;
    uses: number;
    maxUses: number;
    /** maxUses - uses as last decided (the near-maximum query filters on it). */
    usesLeft: number;
    lastSessionId?: string;
    lastUsedAt?: string;
    lastReprocessedAt?: string;
    /** The residual germicide test since the last reprocessing (absent: none yet). */
    residualTest?: ResidualResult;
    discardReason?: DiscardReason;
    /** The running session that claimed it at its start (status in-use); absent otherwise. */
    reservation?: { sessionId: string; patientId: string; reservedAt: string };
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
  };

const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

function withoutReservation(doc: BloodlineDoc): BloodlineDoc {
  const { reservation: _r, ...rest } = doc;
  return rest;
}

export function foldBloodline(doc: BloodlineDoc | null, recorded: RecordedEvent): BloodlineDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as BloodlineEvent;
  const at = recorded.metadata.occurredAt;
  const stamp = { revision: recorded.revision, updatedAt: at, updatedBy: recorded.metadata.actor, _position: Number(recorded.position) };
  if (event.type === 'BloodlineReceived') {
    if (doc) return doc;
    const { lineId: _id, ...fields } = event.data;
    return {
      tenantId: tenantOfStream(recorded.streamName),
      id: idOfStream(recorded.streamName),
      ...fields,
      status: 'in-stock',
      uses: 0,
      maxUses: 1,
      usesLeft: 1,
      createdAt: at,
      createdBy: recorded.metadata.actor,
      ...stamp,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'BloodlineAssignedToPatient':
      return {
        ...doc,
        ...stamp,
        status: 'assigned',
        patientId: event.data.patientId,
        maxUses: event.data.maxUses,
        usesLeft: event.data.maxUses - doc.uses,
      };
    case 'BloodlineReservedForSession': {
      const { sessionId, patientId, reservedAt } = event.data;
      return { ...doc, ...stamp, status: 'in-use', reservation: { sessionId, patientId, reservedAt } };
    }
    case 'BloodlineReservationReleased':
      return { ...withoutReservation(doc), ...stamp, status: event.data.status };
    case 'BloodlineUsed':
      return {
        ...withoutReservation(doc),
        ...stamp,
        status: 'in-use',
        uses: event.data.useNumber,
        maxUses: event.data.maxUses,
        usesLeft: event.data.maxUses - event.data.useNumber,
        lastSessionId: event.data.sessionId,
        lastUsedAt: at,
      };
    case 'BloodlineReprocessed': {
      const { residualTest: _r, ...rest } = doc;
      return { ...rest, ...stamp, status: 'stored', lastReprocessedAt: at };
    }
    case 'BloodlineResidualTested':
      return { ...doc, ...stamp, residualTest: event.data.result };
    case 'BloodlineDiscarded':
      return { ...withoutReservation(doc), ...stamp, status: 'discarded', discardReason: event.data.reason };
    case 'BloodlinesPaired':
      return { ...doc, ...stamp, partnerId: event.data.partnerId };
    case 'BloodlinePairingUndone': {
      const { partnerId: _p, ...rest } = doc;
      return { ...rest, ...stamp };
    }
  }
}

/** What clients see: the document without its internal keys. */
export function bloodlineView(doc: BloodlineDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, ...view } = doc;
  return view;
}
