// The module of ISSUE26's done-when, "Vacunación hepatitis B", as the Generador tests define it.
import type { ModuleDefinition } from '../../../src/commands/generador/shared/definitionTypes.js';

export const VACUNACION_CODE = 'vacunacion-hbv';

export const vacunacionHbv: ModuleDefinition = {
  name: 'Vacunación hepatitis B',
  description: 'Doses of the hepatitis B vaccine and the anti-HBs titre',
  patientLinked: true,
  fields: [
    { name: 'doseNumber', label: 'Dose number', type: 'integer', required: true, minimum: 1, maximum: 6 },
    { name: 'administeredOn', label: 'Administered on', type: 'date', required: true },
    { name: 'lot', label: 'Lot', type: 'text', required: true, maxLength: 40, pattern: '^[A-Za-z0-9-]+$' },
    { name: 'antiHbsTitre', label: 'Anti-HBs titre', type: 'number', minimum: 0, maximum: 10000, unit: 'mUI/mL' },
    {
      name: 'schedule',
      label: 'Schedule',
      type: 'choice',
      required: true,
      choices: ['standard', 'accelerated', 'dialysis'],
      default: 'dialysis',
    },
  ],
  listFields: ['doseNumber', 'administeredOn', 'schedule'],
  filterFields: ['schedule', 'administeredOn', 'doseNumber'],
  sortFields: ['administeredOn', 'doseNumber'],
  states: {
    initial: 'recorded',
    states: [
      { name: 'recorded', label: 'Recorded' },
      { name: 'verified', label: 'Verified' },
    ],
    transitions: [{ name: 'verify', label: 'Verify', from: ['recorded'], to: 'verified', signs: true }],
  },
};
