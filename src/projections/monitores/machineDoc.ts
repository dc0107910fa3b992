// The machine read model: one document per machine, the decider's own state folded from its stream (so the read model
// and the write side never disagree on the status), plus who/when. Pure, shared by the projection and read-your-writes.
import {
  CORRECTABLE_MACHINE_FIELDS,
  machineValueKey,
  type MachineEvent,
  type MachineFields,
} from '../../commands/monitores/machineEvents.js';
import { evolveMachine, initialMachineState, type MachineState } from '../../commands/monitores/shared/machineState.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type MachineDoc = ProjectedDoc &
  MachineFields &
  Omit<MachineState, 'exists' | 'fields'> & {
    /** Revision of the machine stream: the ETag. */
    revision: number;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
    /** Internal: code as compared (sort key). */
    codeKey: string;
  };

/** The id of a stream `<tenant>.<category>-<id>`. */
export const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

function stateOf(doc: MachineDoc): MachineState {
  const fields: Record<string, unknown> = {};
  const rest: Record<string, unknown> = { ...doc };
  // Every field of a machine is correctable: the contract's list names them all.
  for (const name of CORRECTABLE_MACHINE_FIELDS) {
    if (doc[name] !== undefined) fields[name] = doc[name];
    delete rest[name];
  }
  return { ...initialMachineState, ...(rest as Partial<MachineState>), exists: true, fields: fields as MachineFields };
}

export function foldMachine(doc: MachineDoc | null, recorded: RecordedEvent): MachineDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as MachineEvent;
  if (!doc && event.type !== 'MachineRegistered') return null;
  if (doc && event.type === 'MachineRegistered') return doc;
  const next = evolveMachine(doc ? stateOf(doc) : initialMachineState, event);
  const { exists: _e, fields, ...rest } = next;
  if (!fields) return doc;
  const kept = doc ? { tenantId: doc.tenantId, id: doc.id, createdAt: doc.createdAt, createdBy: doc.createdBy } : null;
  return {
    ...(kept ?? {
      tenantId: tenantOfStream(recorded.streamName),
      id: idOfStream(recorded.streamName),
      createdAt: recorded.metadata.occurredAt,
      createdBy: recorded.metadata.actor,
    }),
    ...fields,
    ...rest,
    codeKey: machineValueKey(fields.code),
    revision: recorded.revision,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
}

/** What clients see: the document without its internal keys. */
export function machineView(doc: MachineDoc): Record<string, unknown> {
  const {
    tenantId: _t,
    _position,
    _changedAt: _changed,
    codeKey: _k,
    restoreTo: _r,
    pmBaseDate: _d,
    pmBaseHours: _h,
    interruptedSession: _i,
    ...view
  } = doc;
  const { usesSincePm: _u, calibrationHold: _c, calibrationBaseDate: _b, countedAsHistory: _h2, ...shown } = view;
  return { ...shown, failedCalibrations: doc.failedCalibrations ?? [] };
}
