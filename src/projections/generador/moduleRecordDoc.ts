// A record of a company-defined module, folded from its own stream (pure: the projection, the read-after-write fold
// and the asOf fold build the same document), and what clients see of it: its values read through the module's mapping.
import type { ModuleRecordEvent } from '../../commands/generador/record/moduleRecordEvents.js';
import type { ModuleState } from '../../commands/generador/shared/moduleFold.js';
import type { FieldValue, RecordValues } from '../../commands/generador/shared/definitionTypes.js';
import { upcastToCurrent } from '../../commands/generador/shared/upcast.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type ModuleRecordDoc = ProjectedDoc & {
  module: string;
  patientId: string | null;
  state: string | null;
  archived: boolean;
  /** The major version `written` is in (the one it was created or last rewritten with). */
  major: number;
  /**
   * The minor of `major` the record was last written with: from its event when the event says it, else stamped by the
   * projection from the module's majors then (so a record folded from its stream alone may lack it).
   */
  minor?: number;
  /** The values as written and amended, in `major`. */
  written: RecordValues;
  /**
   * The values mapped onto the module's current major: what lists filter and sort on. The projection keeps them
   * mapped; folded from the stream alone (no module at hand) they are `written` as they are. Views read `written`.
   */
  values: RecordValues;
  /** Revision of the record's stream: the ETag. */
  revision: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  signedAt?: string;
  signedBy?: string;
};

export function foldModuleRecord(doc: ModuleRecordDoc | null, recorded: RecordedEvent): ModuleRecordDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as ModuleRecordEvent;
  const stamp = {
    revision: recorded.revision,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
  if (event.type === 'ModuleRecordCreated') {
    if (doc) return doc;
    const { module, major, minor, patientId, values, state } = event.data;
    return {
      tenantId: tenantOfStream(recorded.streamName),
      id: aggregateIdOfStream(recorded.streamName),
      module,
      patientId,
      state,
      archived: false,
      major,
      ...(minor === undefined ? {} : { minor }),
      written: values,
      values,
      createdAt: recorded.metadata.occurredAt,
      createdBy: recorded.metadata.actor,
      ...stamp,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'ModuleRecordAmended': {
      const { major, minor, values, cleared, rewritten } = event.data;
      const written: Record<string, FieldValue> = { ...(rewritten ? {} : doc.written), ...values };
      for (const field of cleared) delete written[field];
      // Without a minor in the event, the projection stamps the module's (the stream alone does not know it).
      const { minor: _before, ...rest } = doc;
      return { ...rest, ...stamp, major, ...(minor === undefined ? {} : { minor }), written, values: written };
    }
    case 'ModuleRecordTransitioned': {
      const signed = event.data.signed ? { signedAt: recorded.metadata.occurredAt, signedBy: recorded.metadata.actor } : {};
      if (event.data.reopened) {
        const { signedAt: _at, signedBy: _by, ...unsigned } = doc;
        return { ...unsigned, ...stamp, state: event.data.to };
      }
      return { ...doc, ...stamp, state: event.data.to, ...signed };
    }
    case 'ModuleRecordArchived':
      return { ...doc, ...stamp, archived: true };
  }
}

/** What a view needs of the module: its definition now and its majors (a module document or the decider's state). */
export type ModuleShape = Pick<ModuleState, 'definition' | 'majors'> & { code?: string; id?: string };

/**
 * What clients see of a record: its values read through the module's mapping onto the current major. A list item
 * (`listFields`) carries only the module's list fields (all of them when the module names none). `version` is the
 * major the record is written in, with the minor of it the record was last written with when that is known (see `minor`).
 */
export function moduleRecordView(doc: ModuleRecordDoc, module: ModuleShape, opts: { listFields?: boolean } = {}): Record<string, unknown> {
  const { definition } = module;
  let values = upcastToCurrent(doc.written, doc.major, module.majors);
  const listed = opts.listFields ? definition.listFields : undefined;
  if (listed) values = Object.fromEntries(listed.filter((f) => f in values).map((f) => [f, values[f]!]));
  return {
    id: doc.id,
    module: doc.module,
    revision: doc.revision,
    version: doc.minor === undefined ? { major: doc.major } : { major: doc.major, minor: doc.minor },
    ...(definition.patientLinked ? { patientId: doc.patientId } : {}),
    ...(definition.states ? { state: doc.state } : {}),
    archived: doc.archived,
    values,
    ...(doc.signedAt ? { signedAt: doc.signedAt, signedBy: doc.signedBy } : {}),
    createdAt: doc.createdAt,
    createdBy: doc.createdBy,
    updatedAt: doc.updatedAt,
    updatedBy: doc.updatedBy,
  };
}
