// JSON Schemas of the dialysis prescription (domain.md 2.3) with the hard ranges of 2.12: a value outside them is
// refused naming the field. Rules between fields (dates, anticoagulation per kind, one decimal) are the decider's.
import type { JsonSchema } from '../../routeTypes.js';
import { freeText } from '../../commonSchemas.js';
import {
  ANTICOAGULATION_KINDS,
  CANNULATION_TECHNIQUES,
  FLUXES,
  LMWH_UNITS,
  MODALITIES,
} from '../../../commands/dialisis/prescription/prescriptionEvents.js';
import { MEDICATION_ROUTES } from '../../../commands/dialisis/session/sessionEvents.js';
import { DateSchema, DateTimeSchema, IdSchema, nullable, text } from '../shared/fieldSchemas.js';
import { obj } from './sessionSchemas.js';

const range = (min: number, max: number, unit: string, description: string, integer = false): JsonSchema => ({
  type: integer ? 'integer' : 'number',
  minimum: min,
  maximum: max,
  description: `${description} (${min}-${max} ${unit})`,
});
const gauge = (which: string) => range(14, 17, 'G', `${which} needle gauge`, true);

const Dialyzer = obj({
  model: text(100),
  surfaceM2: range(0.1, 3.5, 'm²', 'Membrane surface'),
  flux: { enum: [...FLUXES] },
  membrane: text(100, 'e.g. polysulfone, Helixone, PMMA'),
});

const Dialysate = obj(
  {
    acidConcentrateCode: text(40, 'Acid concentrate as the unit codes it'),
    sodiumMmolL: range(136, 145, 'mmol/L', 'Sodium'),
    potassiumMmolL: range(1, 4, 'mmol/L', 'Potassium'),
    calciumMmolL: range(1, 1.5, 'mmol/L', 'Calcium'),
    magnesiumMmolL: range(0, 1.5, 'mmol/L', 'Magnesium'),
    bicarbonateMmolL: range(22, 43, 'mmol/L', 'Bicarbonate'),
    glucoseMgDl: range(0, 300, 'mg/dL', 'Glucose'),
    temperatureC: range(35, 37, '°C', 'Dialysate temperature'),
    profile: text(120, 'Sodium / UF profile, as the machine names it'),
  },
  [
    'acidConcentrateCode',
    'sodiumMmolL',
    'potassiumMmolL',
    'calciumMmolL',
    'magnesiumMmolL',
    'bicarbonateMmolL',
    'glucoseMgDl',
    'temperatureC',
  ],
);

const anticoagulationFields: Record<string, JsonSchema> = {
  kind: {
    enum: [...ANTICOAGULATION_KINDS],
    description: 'none needs reason; ufh needs bolusUnits, hourlyUnits, stopMinutesBeforeEnd; lmwh needs drug, dose, unit',
  },
  reason: freeText(500, 'Why no anticoagulation (kind none)'),
  bolusUnits: range(0, 20_000, 'IU', 'Unfractionated heparin bolus', true),
  hourlyUnits: range(0, 5_000, 'IU/h', 'Unfractionated heparin hourly dose', true),
  stopMinutesBeforeEnd: range(0, 480, 'min', 'Stop the heparin this long before the end (less than the duration)', true),
  drug: text(120, 'Low-molecular-weight heparin, e.g. enoxaparin'),
  dose: { type: 'number', exclusiveMinimum: 0, maximum: 100_000, description: 'Single dose at the start' },
  unit: { enum: [...LMWH_UNITS] },
};
const Anticoagulation = obj(anticoagulationFields, ['kind']);

const Needles = obj({
  arterialGauge: gauge('Arterial'),
  venousGauge: gauge('Venous'),
  cannulationTechnique: { enum: [...CANNULATION_TECHNIQUES] },
});

const CatheterLock = obj(
  {
    arterialMl: range(0.5, 5, 'mL', 'Lock volume of the arterial lumen'),
    venousMl: range(0.5, 5, 'mL', 'Lock volume of the venous lumen'),
    solution: text(120, 'e.g. heparin 5000 IU/mL, citrate 4 %'),
  },
  ['arterialMl', 'venousMl'],
);

const Medication = obj({
  drug: text(120, 'e.g. epoetin alfa, iron sucrose, paricalcitol'),
  dose: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 },
  unit: text(20, 'mg, IU, mL, µg...'),
  route: { enum: [...MEDICATION_ROUTES] },
  frequency: text(120, 'e.g. every session, weekly on Monday'),
});

const prescriptionFields: Record<string, JsonSchema> = {
  modality: { enum: [...MODALITIES] },
  durationMinutes: range(60, 480, 'min', 'Session duration', true),
  frequencyPerWeek: range(1, 7, 'sessions', 'Sessions per week', true),
  dryWeightKg: range(
    5,
    300,
    'kg',
    "Optional: recorded as the patient's dry weight from validFrom (/pacientes/{id}/peso-seco, the one source sessions use); at most one decimal",
  ),
  ufGoalRule: freeText(500, 'How the UF goal is set, e.g. pre-weight minus dry weight plus fluids given'),
  qbMlMin: range(100, 600, 'mL/min', 'Blood flow', true),
  qdMlMin: range(100, 800, 'mL/min', 'Dialysate flow', true),
  dialyzer: Dialyzer,
  dialysate: Dialysate,
  anticoagulation: Anticoagulation,
  needles: { ...Needles, description: 'For a fistula or graft; absent with a catheter' },
  catheterLock: { ...CatheterLock, description: 'For a catheter: lock volume per lumen' },
  medications: { type: 'array', maxItems: 30, items: Medication, description: 'Given during the sessions (EPO, iron, vitamin D...)' },
  validFrom: { ...DateSchema, description: 'First day in force; not before the validFrom of the version it supersedes' },
  validTo: { ...DateSchema, description: 'Last day in force (optional; not before validFrom)' },
  residualUreaClearance: {
    ...obj({
      mlMin: { type: 'number', minimum: 0, maximum: 30, description: 'Kru, mL/min (interdialytic urine collection)' },
      measuredOn: { ...DateSchema, description: 'Day of the urine collection' },
    }),
    description: 'Residual urea clearance the physician doses by: added to stdKt/V as Kru x 10080 / V (KDOQI 2015)',
  },
};
const OPTIONAL = ['needles', 'catheterLock', 'validTo', 'residualUreaClearance', 'dryWeightKg'];

export const IssueBody = obj(
  prescriptionFields,
  Object.keys(prescriptionFields).filter((k) => !OPTIONAL.includes(k)),
);

export const DiscontinueBody = obj(
  {
    reason: freeText(500, 'Why the prescription stops'),
    from: { ...DateSchema, description: "First day without the prescription (default: the company's today)" },
  },
  ['reason'],
);

export const PatientParams = obj({ patientId: IdSchema });

const Version = { type: 'integer', minimum: 1 };

export const PrescriptionView = obj(
  {
    ...prescriptionFields,
    dryWeightKg: {
      type: ['number', 'null'],
      description: "The patient's dry weight in force (their /peso-seco record) on the day asked, or from this version's effectiveFrom",
    },
    validTo: nullable(DateSchema),
    patientId: IdSchema,
    version: Version,
    supersedes: { ...nullable(Version), description: 'The version this one replaced' },
    supersededBy: { ...nullable(Version), description: 'The version that replaced this one' },
    prescribedBy: obj({ userId: { type: 'string' }, staffId: { type: 'string' } }),
    issuedAt: DateTimeSchema,
    issuedBy: { type: 'string' },
    effectiveFrom: DateSchema,
    effectiveTo: {
      ...nullable(DateSchema),
      description:
        'Last day in force: validTo, cut to the day before a successor or a discontinuation; before effectiveFrom = never in force',
    },
    discontinued: nullable(
      obj(
        {
          from: DateSchema,
          reason: { type: 'string' },
          discontinuedAt: DateTimeSchema,
          by: { ...obj({ userId: { type: 'string' }, staffId: { type: 'string' } }), description: 'The physician who discontinued it' },
        },
        ['from', 'reason', 'discontinuedAt'],
      ),
    ),
  },
  [
    ...Object.keys(prescriptionFields).filter((k) => !OPTIONAL.includes(k)),
    'validTo',
    'patientId',
    'version',
    'supersedes',
    'supersededBy',
    'prescribedBy',
    'issuedAt',
    'issuedBy',
    'effectiveFrom',
    'effectiveTo',
    'discontinued',
  ],
);
