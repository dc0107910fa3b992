// The prescription read model: one document per version (a patient's versions never grow one document), folded with
// the write side's own steps (supersede, discontinue), so both agree on each version's effective period.
import type { PrescriptionEvent } from '../../commands/dialisis/prescription/prescriptionEvents.js';
import { discontinue, issuedVersion, supersede, type PrescriptionVersion } from '../../commands/dialisis/shared/prescriptionState.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type PrescriptionDoc = ProjectedDoc &
  PrescriptionVersion & {
    patientId: string;
    /** Revision of the patient's prescription stream when this version last changed. */
    revision: number;
    issuedBy: string;
  };

export const prescriptionDocId = (patientId: string, version: number): string => `${patientId}:${version}`;

const stamp = (recorded: RecordedEvent) => ({ revision: recorded.revision, _position: Number(recorded.position) });

/** The version an event creates (PrescriptionIssued), as a new document. */
export function issuedDoc(doc: PrescriptionDoc | null, recorded: RecordedEvent): PrescriptionDoc | null {
  if (doc) return doc;
  const event = { type: recorded.type, data: recorded.data } as unknown as PrescriptionEvent;
  if (event.type !== 'PrescriptionIssued') return doc;
  return {
    ...issuedVersion(event.data),
    tenantId: tenantOfStream(recorded.streamName),
    id: prescriptionDocId(event.data.patientId, event.data.version),
    patientId: event.data.patientId,
    issuedBy: recorded.metadata.actor,
    ...stamp(recorded),
  };
}

/** The version an event changes: the one a new version supersedes, or the one discontinued. */
export function changedDoc(doc: PrescriptionDoc | null, recorded: RecordedEvent): PrescriptionDoc | null {
  if (!doc) return doc;
  const event = { type: recorded.type, data: recorded.data } as unknown as PrescriptionEvent;
  if (event.type === 'PrescriptionIssued') return { ...doc, ...supersede(doc, event.data), ...stamp(recorded) };
  return { ...doc, ...discontinue(doc, event.data), ...stamp(recorded) };
}

type Fold = (doc: PrescriptionDoc | null, recorded: RecordedEvent) => PrescriptionDoc | null;

/** The versions an event touches, each with its fold: a new version (and the one it supersedes), or the one discontinued. */
export function foldsOf(recorded: RecordedEvent): { version: number; fold: Fold }[] {
  const event = { type: recorded.type, data: recorded.data } as unknown as PrescriptionEvent;
  if (event.type === 'PrescriptionDiscontinued') return [{ version: event.data.version, fold: changedDoc }];
  const created = { version: event.data.version, fold: issuedDoc };
  return event.data.supersedes === null ? [created] : [{ version: event.data.supersedes, fold: changedDoc }, created];
}

/** One version folded from the patient's prescription stream (when the read model lags behind a write). */
export function foldVersionDoc(stream: RecordedEvent[], version: number): PrescriptionDoc | null {
  let doc: PrescriptionDoc | null = null;
  for (const recorded of stream) for (const f of foldsOf(recorded)) if (f.version === version) doc = f.fold(doc, recorded);
  return doc;
}

/** What clients see: the version with its effective period (effectiveTo before effectiveFrom: never in force). */
export function prescriptionView(doc: PrescriptionDoc): Record<string, unknown> {
  const { tenantId: _t, id: _i, _position, _changedAt: _changed, revision: _r, effectiveTo, validTo, ...rest } = doc;
  return { ...rest, validTo: validTo ?? null, effectiveFrom: doc.validFrom, effectiveTo };
}
