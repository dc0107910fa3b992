// Records of a company-defined module (stream `<tenant>.moduleRecord-<uuid>`). Each event names its module and the
// major version its values are written in; a record is read through its module's mapping onto the latest version.
import type { CommandEnvelope, DecidedEvent } from '../../decider.js';
import { streamName } from '../../../stores/streamNames.js';
import type { RecordValues } from '../shared/definitionTypes.js';

export const MODULE_RECORD_CATEGORY = 'moduleRecord';
export const moduleRecordStream = (tenantId: string, recordId: string): string => streamName(tenantId, MODULE_RECORD_CATEGORY, recordId);

export type ModuleRecordCommand =
  | CommandEnvelope<'CreateModuleRecord', { recordId: string; module: string; patientId: string | null; values: RecordValues }>
  /** `values` holds what changes; a null clears an optional field. */
  | CommandEnvelope<'AmendModuleRecord', { values: Record<string, RecordValues[string] | null> }>
  | CommandEnvelope<'TransitionModuleRecord', { transition: string; signed: boolean }>
  | CommandEnvelope<'ArchiveModuleRecord', Record<string, never>>;

export type ModuleRecordEvent =
  | DecidedEvent<
      'ModuleRecordCreated',
      {
        recordId: string;
        module: string;
        major: number;
        /** The minor of `major` the values were validated against (optional: the read side then takes the module's then). */
        minor?: number;
        patientId: string | null;
        values: RecordValues;
        state: string | null;
      }
    >
  /**
   * `values` holds the fields set, `cleared` those removed. When the record was written with an older major version,
   * the amendment carries the whole record mapped onto the new one (`rewritten: true`) and the record moves to it.
   */
  | DecidedEvent<
      'ModuleRecordAmended',
      {
        module: string;
        major: number;
        /** As on creation: the minor of `major` the amendment was validated against. */
        minor?: number;
        values: RecordValues;
        cleared: string[];
        rewritten: boolean;
        patientId: string | null;
      }
    >
  | DecidedEvent<
      'ModuleRecordTransitioned',
      {
        module: string;
        transition: string;
        from: string;
        to: string;
        signed: boolean;
        /** A signed record sent back to a state that awaits a signature: it is unsigned again (and may be amended). */
        reopened?: boolean;
        patientId: string | null;
      }
    >
  | DecidedEvent<'ModuleRecordArchived', { module: string; patientId: string | null }>;

export const MODULE_RECORD_EVENT_TYPES: readonly ModuleRecordEvent['type'][] = [
  'ModuleRecordCreated',
  'ModuleRecordAmended',
  'ModuleRecordTransitioned',
  'ModuleRecordArchived',
];
