// A module for record tests: a patient-linked hepatitis B dose with a signing step, published at major 1, and the same
// module after a major 2 that renames `lot` to `batch` and adds a required `site` (defaulted for older records).
import type { ModuleDefinition } from '../shared/definitionTypes.js';
import type { ModuleState } from '../shared/moduleFold.js';
export const v1: ModuleDefinition = {
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields: [
    { name: 'dose', label: 'Dose', type: 'integer', required: true },
    { name: 'date', label: 'Date', type: 'date', required: true },
    { name: 'lot', label: 'Lot', type: 'text' },
    { name: 'schedule', label: 'Schedule', type: 'choice', choices: ['standard', 'rapid'], default: 'standard' },
    { name: 'nurse', label: 'Nurse', type: 'reference', refersTo: 'staff' },
  ],
  filterFields: [],
  sortFields: [],
  states: {
    initial: 'draft',
    states: [
      { name: 'draft', label: 'Draft' },
      { name: 'signed', label: 'Signed' },
      { name: 'void', label: 'Void' },
    ],
    transitions: [
      { name: 'sign', label: 'Sign', from: ['draft'], to: 'signed', signs: true },
      { name: 'void', label: 'Void', from: ['draft'], to: 'void' },
    ],
  },
};
export const v2: ModuleDefinition = {
  ...v1,
  fields: [
    ...v1.fields.filter((f) => f.name !== 'lot'),
    { name: 'site', label: 'Site', type: 'text', required: true },
    { name: 'batch', label: 'Batch', type: 'text' },
  ],
};
export const published: ModuleState = {
  exists: true,
  code: 'hepb',
  status: 'published',
  definition: v1,
  version: { major: 1, minor: 0 },
  majors: [{ major: 1, minor: 0, definition: v1, upcast: [] }],
};
export const onMajor2: ModuleState = {
  ...published,
  definition: v2,
  version: { major: 2, minor: 0 },
  majors: [
    ...published.majors,
    {
      major: 2,
      minor: 0,
      definition: v2,
      upcast: [
        { op: 'rename', from: 'lot', to: 'batch' },
        { op: 'default', field: 'site', value: 'deltoid' },
      ],
    },
  ],
};

/** The module with a way back from `signed` to `draft` (which reopens a signed record) and one onwards to `filed`. */
export const withReopen: ModuleState = {
  ...published,
  definition: {
    ...v1,
    states: {
      ...v1.states!,
      states: [...v1.states!.states, { name: 'filed', label: 'Filed' }],
      transitions: [
        ...v1.states!.transitions,
        { name: 'reopen', label: 'Reopen', from: ['signed'], to: 'draft' },
        { name: 'file', label: 'File', from: ['signed'], to: 'filed' },
      ],
    },
  },
};
