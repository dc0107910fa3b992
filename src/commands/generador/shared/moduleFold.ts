// A module as its events make it: the definition now, its status, and each major version with the mapping of records
// written in the major before it. One fold for the decider, the projection and a record's read through the mapping.
import type { ModuleEvent } from '../module/moduleEvents.js';
import type { ModuleDefinition, ModuleStatus, ModuleVersion, UpcastStep } from './definitionTypes.js';

/** One major version: its definition now (its latest minor) and how a record of the major before reads in it. */
export interface MajorVersion {
  major: number;
  minor: number;
  definition: ModuleDefinition;
  /** From the previous major onto this one; empty for the first. */
  upcast: UpcastStep[];
}

export interface ModuleState {
  exists: boolean;
  code: string;
  status: ModuleStatus;
  definition: ModuleDefinition;
  version: ModuleVersion;
  /** Oldest first; the last is the current major. */
  majors: MajorVersion[];
}

const EMPTY: ModuleDefinition = { name: '', patientLinked: false, fields: [], filterFields: [], sortFields: [] };
export const initialModuleState: ModuleState = {
  exists: false,
  code: '',
  status: 'draft',
  definition: EMPTY,
  version: { major: 0, minor: 0 },
  majors: [],
};

export function evolveModule(state: ModuleState, event: ModuleEvent): ModuleState {
  switch (event.type) {
    case 'ModuleDefined': {
      const { code, definition, version } = event.data;
      return { exists: true, code, status: 'draft', definition, version, majors: [{ ...version, definition, upcast: [] }] };
    }
    case 'ModuleDefinitionChanged': {
      const { definition, version } = event.data;
      const majors = state.majors.map((m) => (m.major === version.major ? { ...m, minor: version.minor, definition } : m));
      return { ...state, definition, version, majors };
    }
    case 'ModuleMajorVersionAdded': {
      const { definition, version, upcast } = event.data;
      return { ...state, definition, version, majors: [...state.majors, { ...version, definition, upcast }] };
    }
    case 'ModulePublished':
      return { ...state, status: 'published' };
    case 'ModuleRetired':
      return { ...state, status: 'retired' };
  }
}
