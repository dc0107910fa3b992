// The dialyzer read model: one document per dialyzer, folded from its stream. Pure, so the projection and the
// read-your-writes fallback (folding the stream directly) build the same document. It carries the readiness facts,
// so the floor queries judge readiness with the decider's own rule.
import {
  dialyzerSerialKey,
  type DialyzerEvent,
  type DialyzerFields,
  type DiscardReason,
} from '../../commands/filtros-dialisis/dialyzerEvents.js';
import type { ReadinessFacts } from '../../commands/filtros-dialisis/shared/readiness.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type DialyzerDoc = ProjectedDoc &
  DialyzerFields &
  ReadinessFacts & {
    /** Revision of the dialyzer stream: the ETag. */
    revision: number;
    baselineTcvMl: number | null;
    firstUseAt: string | null;
    lastUseAt: string | null;
    lastReprocessedAt: string | null;
    lastTcvPercent: number | null;
    storageLocation: string | null;
    discardReason: DiscardReason | null;
    /** The running session that claimed it at its start (status in-use); absent otherwise. */
    reservation?: { sessionId: string; patientId: string; reservedAt: string };
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
    /** Internal: the serial as compared (sort key). */
    serialKey: string;
  };

/** The id of a stream `<tenant>.<category>-<id>`. */
export const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

function created(
  event: Extract<DialyzerEvent, { type: 'DialyzerReceived' }>,
  recorded: RecordedEvent,
): Omit<DialyzerDoc, '_position' | 'revision' | 'updatedAt' | 'updatedBy'> {
  const { dialyzerId: _id, ...fields } = event.data;
  return {
    tenantId: tenantOfStream(recorded.streamName),
    id: idOfStream(recorded.streamName),
    ...fields,
    status: 'in-stock',
    patientId: null,
    baselineTcvMl: null,
    uses: 0,
    cycle: 0,
    lastFillTime: null,
    lastGermicide: null,
    expiresOn: null,
    checks: null,
    firstUseAt: null,
    lastUseAt: null,
    lastReprocessedAt: null,
    lastTcvPercent: null,
    storageLocation: null,
    discardReason: null,
    createdAt: recorded.metadata.occurredAt,
    createdBy: recorded.metadata.actor,
    serialKey: dialyzerSerialKey(fields.serial),
  };
}

function withoutReservation(doc: DialyzerDoc): DialyzerDoc {
  const { reservation: _r, ...rest } = doc;
  return rest;
}

export function foldDialyzer(doc: DialyzerDoc | null, recorded: RecordedEvent): DialyzerDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as DialyzerEvent;
  const at = recorded.metadata.occurredAt;
  const stamp = { revision: recorded.revision, updatedAt: at, updatedBy: recorded.metadata.actor, _position: Number(recorded.position) };
  if (event.type === 'DialyzerReceived') return doc ?? ({ ...created(event, recorded), ...stamp } as DialyzerDoc);
  if (!doc) return null;
  switch (event.type) {
    case 'DialyzerAssignedToPatient':
      return { ...doc, ...stamp, status: 'assigned', patientId: event.data.patientId, baselineTcvMl: event.data.baselineTcvMl };
    case 'DialyzerReprocessed': {
      const d = event.data;
      return {
        ...doc,
        ...stamp,
        status: 'stored',
        cycle: d.cycle,
        lastFillTime: d.fillTime,
        lastGermicide: d.germicide.name,
        expiresOn: d.expiresOn,
        checks: null,
        lastReprocessedAt: at,
        lastTcvPercent: d.tcvPercent,
        storageLocation: d.storageLocation,
      };
    }
    case 'DialyzerQuarantined':
      return { ...doc, ...stamp, status: 'quarantined' };
    case 'PreUseChecksRecorded': {
      const { checkedAt: _c, ...checks } = event.data;
      return { ...doc, ...stamp, checks };
    }
    case 'DialyzerReservedForSession': {
      const { sessionId, patientId, reservedAt } = event.data;
      return { ...doc, ...stamp, status: 'in-use', reservation: { sessionId, patientId, reservedAt } };
    }
    case 'DialyzerReservationReleased':
      return { ...withoutReservation(doc), ...stamp, status: event.data.status };
    case 'DialyzerUsed':
      return {
        ...withoutReservation(doc),
        ...stamp,
        status: 'used',
        uses: event.data.useNumber,
        checks: null,
        firstUseAt: doc.firstUseAt ?? at,
        lastUseAt: at,
      };
    case 'DialyzerDiscarded':
      return { ...withoutReservation(doc), ...stamp, status: 'discarded', discardReason: event.data.reason };
  }
}

/** What clients see: the document without its internal keys. */
export function dialyzerView(doc: DialyzerDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, serialKey: _k, ...view } = doc;
  return view;
}
