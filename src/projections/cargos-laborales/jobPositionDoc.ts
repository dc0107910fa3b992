// The job position read model: one document per position, folded from its stream. Pure, so the projection and the
// read-your-writes fallback (folding the stream directly) build the same document.
import {
  positionCodeKey,
  type JobPositionEvent,
  type JobPositionFields,
  type PositionStatus,
} from '../../commands/cargos-laborales/jobPositionEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type JobPositionDoc = ProjectedDoc &
  JobPositionFields & {
    /** Revision of the position stream: the ETag. */
    revision: number;
    status: PositionStatus;
    statusReason?: string;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
    /** Internal: the code as compared (sort key). */
    codeKey: string;
  };

/** The id of a stream `<tenant>.<category>-<id>`. */
export const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

export function foldJobPosition(doc: JobPositionDoc | null, recorded: RecordedEvent): JobPositionDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as JobPositionEvent;
  const stamp = {
    revision: recorded.revision,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
  if (event.type === 'JobPositionCreated') {
    if (doc) return doc;
    const { positionId: _id, ...fields } = event.data;
    return {
      tenantId: tenantOfStream(recorded.streamName),
      id: idOfStream(recorded.streamName),
      ...fields,
      createdAt: recorded.metadata.occurredAt,
      createdBy: recorded.metadata.actor,
      codeKey: positionCodeKey(fields.code),
      ...stamp,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'JobPositionCorrected': {
      const next: Record<string, unknown> = { ...doc, ...stamp };
      for (const [field, value] of Object.entries(event.data.changes)) {
        if (value === null) delete next[field];
        else next[field] = value;
      }
      return { ...(next as JobPositionDoc), codeKey: positionCodeKey(String(next.code)) };
    }
    case 'JobPositionDeactivated':
      return { ...doc, ...stamp, status: 'inactive', statusReason: event.data.reason };
    case 'JobPositionReactivated':
      return { ...doc, ...stamp, status: 'active', statusReason: event.data.reason };
  }
}

/** What clients see: the document without its internal keys. */
export function jobPositionView(doc: JobPositionDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, codeKey: _k, ...view } = doc;
  return { ...view, physician: view.physician === true };
}
