// JSON Schemas of the dialysis prescription (domain.md 2.3) with the hard ranges of 2.12: a value outside them is
// refused naming the field. Rules between fields (dates, anticoagulation per kind, one decimal) are the decider's.
// Declared once with TypeBox: the body types are inferred from them.
import Type, { type TInteger, type TNumber } from 'typebox';
import {
  ANTICOAGULATION_KINDS,
  CANNULATION_TECHNIQUES,
  FLUXES,
  LMWH_UNITS,
  MODALITIES,
} from '../../../commands/dialisis/prescription/prescriptionEvents.js';
import { MEDICATION_ROUTES } from '../../../commands/dialisis/session/sessionEvents.js';
import { DateSchema, DateTimeSchema, IdSchema, nullable, text } from '../shared/fieldSchemas.js';
import { described, freeText, obj } from './schemaParts.js';

const range = (min: number, max: number, unit: string, description: string): TNumber =>
  Type.Number({ minimum: min, maximum: max, description: `${description} (${min}-${max} ${unit})` });
const whole = (min: number, max: number, unit: string, description: string): TInteger =>
  Type.Integer({ minimum: min, maximum: max, description: `${description} (${min}-${max} ${unit})` });
const gauge = (which: string) => whole(14, 17, 'G', `${which} needle gauge`);

const Dialyzer = obj({
  model: text(100),
  surfaceM2: range(0.1, 3.5, 'm²', 'Membrane surface'),
  flux: Type.Enum(FLUXES),
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

const anticoagulationFields = {
  kind: Type.Enum(ANTICOAGULATION_KINDS, {
    description: 'none needs reason; ufh needs bolusUnits, hourlyUnits, stopMinutesBeforeEnd; lmwh needs drug, dose, unit',
  }),
  reason: freeText(500, 'Why no anticoagulation (kind none)'),
  bolusUnits: whole(0, 20_000, 'IU', 'Unfractionated heparin bolus'),
  hourlyUnits: whole(0, 5_000, 'IU/h', 'Unfractionated heparin hourly dose'),
  stopMinutesBeforeEnd: whole(0, 480, 'min', 'Stop the heparin this long before the end (less than the duration)'),
  drug: text(120, 'Low-molecular-weight heparin, e.g. enoxaparin'),
  dose: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Single dose at the start' }),
  unit: Type.Enum(LMWH_UNITS),
};
const Anticoagulation = obj(anticoagulationFields, ['kind']);

const Needles = obj({
  arterialGauge: gauge('Arterial'),
  venousGauge: gauge('Venous'),
  cannulationTechnique: Type.Enum(CANNULATION_TECHNIQUES),
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
  dose: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
  unit: text(20, 'mg, IU, mL, µg...'),
  route: Type.Enum(MEDICATION_ROUTES),
  frequency: text(120, 'e.g. every session, weekly on Monday'),
});

const prescriptionFields = {
  modality: Type.Enum(MODALITIES),
  durationMinutes: whole(60, 480, 'min', 'Session duration'),
  frequencyPerWeek: whole(1, 7, 'sessions', 'Sessions per week'),
  dryWeightKg: range(
    5,
    300,
    'kg',
    "Optional: recorded as the patient's dry weight from validFrom (/pacientes/{id}/peso-seco, the one source sessions use); at most one decimal",
  ),
  ufGoalRule: freeText(500, 'How the UF goal is set, e.g. pre-weight minus dry weight plus fluids given'),
  qbMlMin: whole(100, 600, 'mL/min', 'Blood flow'),
  qdMlMin: whole(100, 800, 'mL/min', 'Dialysate flow'),
  dialyzer: Dialyzer,
  dialysate: Dialysate,
  anticoagulation: Anticoagulation,
  needles: described(Needles, 'For a fistula or graft; absent with a catheter'),
  catheterLock: described(CatheterLock, 'For a catheter: lock volume per lumen'),
  medications: Type.Array(Medication, { maxItems: 30, description: 'Given during the sessions (EPO, iron, vitamin D...)' }),
  validFrom: described(DateSchema, 'First day in force; not before the validFrom of the version it supersedes'),
  validTo: described(DateSchema, 'Last day in force (optional; not before validFrom)'),
  residualUreaClearance: obj(
    {
      mlMin: Type.Number({ minimum: 0, maximum: 30, description: 'Kru, mL/min (interdialytic urine collection)' }),
      measuredOn: described(DateSchema, 'Day of the urine collection'),
    },
    undefined,
    { description: 'Residual urea clearance the physician doses by: added to stdKt/V as Kru x 10080 / V (KDOQI 2015)' },
  ),
};
const REQUIRED = [
  'modality',
  'durationMinutes',
  'frequencyPerWeek',
  'ufGoalRule',
  'qbMlMin',
  'qdMlMin',
  'dialyzer',
  'dialysate',
  'anticoagulation',
  'medications',
  'validFrom',
] as const;

export const IssueBody = obj(prescriptionFields, REQUIRED);

export const DiscontinueBody = obj(
  {
    reason: freeText(500, 'Why the prescription stops'),
    from: described(DateSchema, "First day without the prescription (default: the company's today)"),
  },
  ['reason'],
);

export const PatientParams = obj({ patientId: IdSchema });

const Version = Type.Integer({ minimum: 1 });
const Signer = obj({ userId: Type.String(), staffId: Type.String() });

export const PrescriptionView = obj(
  {
    ...prescriptionFields,
    dryWeightKg: Type.Union([Type.Number(), Type.Null()], {
      description: "The patient's dry weight in force (their /peso-seco record) on the day asked, or from this version's effectiveFrom",
    }),
    validTo: nullable(DateSchema),
    patientId: IdSchema,
    version: Version,
    supersedes: described(nullable(Version), 'The version this one replaced'),
    supersededBy: described(nullable(Version), 'The version that replaced this one'),
    prescribedBy: Signer,
    issuedAt: DateTimeSchema,
    issuedBy: Type.String(),
    effectiveFrom: DateSchema,
    effectiveTo: described(
      nullable(DateSchema),
      'Last day in force: validTo, cut to the day before a successor or a discontinuation; before effectiveFrom = never in force',
    ),
    discontinued: nullable(
      obj(
        {
          from: DateSchema,
          reason: Type.String(),
          discontinuedAt: DateTimeSchema,
          by: described(Signer, 'The physician who discontinued it'),
        },
        ['from', 'reason', 'discontinuedAt'],
      ),
    ),
  },
  [
    ...REQUIRED,
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
