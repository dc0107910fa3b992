// JSON Schemas of what a session's nurse and physician send: the blocks of domain.md 2.4-2.9 and 2.13, with the hard
// ranges of 2.12 (a value outside them is refused naming the field; clinical flags are computed, never refused).
// Declared once with TypeBox: each body's type is inferred from its schema.
import Type, { type Static, type TNumber, type TObject, type TProperties, type TString } from 'typebox';
import {
  AMENDABLE_BLOCKS,
  COMPLICATION_CODES,
  INTERRUPTION_REASONS,
  MEDICATION_ROUTES,
  SEVERITIES,
} from '../../../commands/dialisis/session/sessionEvents.js';
import { POST_SAMPLE_METHODS, UREA_ANALYTES, UREA_UNITS } from '../../../commands/dialisis/shared/ureaLab.js';
import { DateSchema, DateTimeSchema, IdSchema, text } from '../shared/fieldSchemas.js';
import { described, freeText, obj } from './schemaParts.js';

/** A measured value within its hard range (domain.md 2.12), with the decimals a clinic records. */
const measure = (min: number, max: number, unit: string, description: string, decimals = 1): TNumber =>
  Type.Number({
    minimum: min,
    maximum: max,
    ...(decimals === 0 ? { multipleOf: 1 } : {}),
    description: `${description} (${min}-${max} ${unit})`,
  });

const weight = (description: string) => measure(5, 300, 'kg', description);
const tare = (description: string) => measure(0, 100, 'kg', description);
const bloodPressure = (sbp: [number, number], dbp: [number, number]) =>
  obj({
    systolic: measure(sbp[0], sbp[1], 'mmHg', 'Systolic', 0),
    diastolic: measure(dbp[0], dbp[1], 'mmHg', 'Diastolic (below the systolic)', 0),
  });
const restingPressure = bloodPressure([20, 300], [20, 300]);
const intradialyticPressure = bloodPressure([40, 260], [20, 180]);
const pulse = measure(20, 250, 'bpm', 'Heart rate', 0);
const temperature = measure(28, 45, '°C', 'Body temperature');
const bun = measure(1, 300, 'mg/dL', 'Blood urea nitrogen (a plain number is BUN in mg/dL)');
/** Urea as the laboratory reports it; converted to BUN mg/dL (urea mg/dL = BUN x 2.14; BUN mg/dL = mmol/L x 2.8). */
const ureaLab = (when: string) =>
  obj(
    {
      value: Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'As reported' }),
      analyte: Type.Enum(UREA_ANALYTES, { description: 'BUN (urea nitrogen) or urea' }),
      unit: Type.Enum(UREA_UNITS),
    },
    undefined,
    { description: `${when} urea as the lab reports it: the BUN mg/dL field is then its conversion (given too, it must agree)` },
  );
const postSample = obj({
  method: Type.Enum(POST_SAMPLE_METHODS, { description: 'How the post sample was drawn (KDOQI: slow-flow or stop-dialysate-flow)' }),
  drawnAt: described(DateTimeSchema, 'When the post sample was drawn: not before the start, not in the future'),
});

const weighed = {
  scaleWeightKg: weight('Weight on the scale, with wheelchair and clothes'),
  wheelchairKg: tare('Wheelchair tare'),
  clothesKg: tare('Clothes tare'),
  bloodPressure: restingPressure,
  standingBloodPressure: restingPressure,
  pulse,
  temperatureC: temperature,
};
const WEIGHED_REQUIRED = ['scaleWeightKg', 'bloodPressure', 'pulse', 'temperatureC'] as const;

const preFields = {
  ...weighed,
  respiratoryRate: measure(4, 60, '/min', 'Respiratory rate', 0),
  spo2: measure(50, 100, '%', 'Oxygen saturation', 0),
  glucoseMgDl: measure(20, 600, 'mg/dL', 'Capillary glucose', 0),
  symptoms: Type.Array(text(120), { maxItems: 20, description: 'Dyspnea, edema, chest pain, fever...' }),
  accessAssessment: freeText(1000, 'Thrill/bruit, infection signs, aneurysm; catheter exit site and dressing'),
  fluidsToGiveL: measure(0, 5, 'L', 'Fluids to be returned or given during the session (part of the UF goal)', 2),
  preBunMgDl: bun,
  preUrea: ureaLab('Pre-dialysis'),
};
export const PreBody = obj(preFields, WEIGHED_REQUIRED);

const postFields = {
  ...weighed,
  machineUfMl: measure(0, 10_000, 'mL', 'Total UF the machine reports', 0),
  bloodProcessedL: measure(0, 200, 'L', 'Blood volume processed'),
  machineKtV: measure(0.05, 3.5, 'Kt/V', 'Kt/V the machine reports', 2),
  machineUrrPercent: measure(0, 100, '%', 'URR the machine reports'),
  rinseBackMl: measure(0, 2000, 'mL', 'Rinse-back volume', 0),
  hemostasisMinutes: measure(0, 120, 'min', 'Compression time', 0),
  accessState: freeText(1000, 'Access state after the session'),
  conditionAtDischarge: freeText(1000, 'Patient condition at discharge'),
  postBunMgDl: bun,
  postUrea: ureaLab('Post-dialysis'),
  postSample,
  intakeL: measure(0, 5, 'L', 'Fluid taken during the session (oral, saline): part of the achieved UF', 2),
  machineEffectiveMinutes: measure(0, 600, 'min', "Treatment minutes the machine counted: when stated, the kinetics' treatment time", 0),
};
export const PostBody = obj(postFields, [...WEIGHED_REQUIRED, 'machineUfMl']);

const safetyFields = {
  conductivityMsCm: measure(10, 18, 'mS/cm', 'Final dialysate conductivity, independent meter', 2),
  conductivityTargetMsCm: measure(10, 18, 'mS/cm', 'Conductivity the prescription targets', 2),
  dialysatePh: measure(5, 9, 'pH', 'Bicarbonate dialysate pH (a start is refused outside 6.5-7.5)', 2),
  dialysateTemperatureC: measure(33, 42, '°C', 'Dialysate temperature'),
  residualDisinfectantAbsent: Type.Boolean({ description: 'Residual disinfectant test negative (machine and dialyzer)' }),
  airDetectorTested: Type.Boolean({ description: 'Air/foam detector stops the pump and clamps the venous line' }),
  bloodLeakDetectorArmed: Type.Boolean(),
  ufControlTested: Type.Boolean({ description: 'UF-control test, where the machine has one' }),
  alarmsTested: Type.Boolean({ description: 'Conductivity, temperature, dialysate and water pressure alarms tested' }),
  checkedBy: text(120, 'Initials or name of who checked'),
};
export const SafetyBody = obj(safetyFields, [
  'conductivityMsCm',
  'conductivityTargetMsCm',
  'dialysateTemperatureC',
  'residualDisinfectantAbsent',
  'airDetectorTested',
  'bloodLeakDetectorArmed',
  'alarmsTested',
  'checkedBy',
]);

export const ReadingBody = obj(
  {
    at: described(DateTimeSchema, 'When it was measured: inside the session'),
    bloodPressure: intradialyticPressure,
    pulse,
    temperatureC: temperature,
    spo2: measure(50, 100, '%', 'Oxygen saturation', 0),
    qbMlMin: measure(50, 800, 'mL/min', 'Blood flow', 0),
    qdMlMin: measure(100, 1000, 'mL/min', 'Dialysate flow', 0),
    arterialPressureMmHg: measure(-400, 100, 'mmHg', 'Arterial (pre-pump) pressure', 0),
    venousPressureMmHg: measure(-100, 500, 'mmHg', 'Venous pressure', 0),
    tmpMmHg: measure(-100, 600, 'mmHg', 'Transmembrane pressure', 0),
    ufRateMlH: measure(0, 4000, 'mL/h', 'UF rate', 0),
    cumulativeUfMl: measure(0, 10_000, 'mL', 'Cumulative UF', 0),
    conductivityMsCm: measure(10, 18, 'mS/cm', 'Conductivity', 2),
    dialysateTemperatureC: measure(33, 42, '°C', 'Dialysate temperature'),
    heparinUnitsH: measure(0, 5000, 'IU/h', 'Heparin rate', 0),
    salineMl: measure(0, 2000, 'mL', 'Saline given', 0),
    note: freeText(1000),
    source: Type.Enum(['manual', 'machine']),
  },
  ['at', 'source'],
);

export const ComplicationBody = obj(
  {
    at: DateTimeSchema,
    code: Type.Enum(COMPLICATION_CODES),
    severity: Type.Enum(SEVERITIES),
    intervention: freeText(1000),
    outcome: freeText(1000),
    note: freeText(1000),
  },
  ['at', 'code', 'severity'],
);

export const MedicationBody = obj(
  {
    drug: text(120),
    dose: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
    unit: text(20, 'mg, IU, mL, µg...'),
    route: Type.Enum(MEDICATION_ROUTES),
    at: DateTimeSchema,
    lot: text(40),
    expiresOn: DateSchema,
    given: Type.Boolean({ description: 'false records a dose not given, with the reason' }),
    reasonNotGiven: freeText(500),
    productId: described(IdSchema, 'The product of the company given: the ended session issues it from stock, with the lot'),
    stockQuantity: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1000,
      description: 'Units of the product used (default 1); needs productId',
    }),
  },
  ['drug', 'dose', 'unit', 'route', 'at', 'given'],
);

export const ReasonBody = obj({ reason: freeText(500, 'Why') });
export const PauseBody = ReasonBody;
const stated = (what: string): TString =>
  described(
    DateTimeSchema,
    `When the treatment ${what}, charted after the fact (default now): not in the future, after the start, after every reading`,
  );
export const InterruptBody = obj(
  {
    reasonCode: Type.Enum(INTERRUPTION_REASONS),
    note: freeText(1000),
    interruptedAt: stated('was interrupted'),
    complicationId: described(IdSchema, 'The complication recorded on this session that caused the interruption'),
  },
  ['reasonCode'],
);
export const EndBody = obj({ endedAt: stated('ended') }, []);
export const EmptyBody = obj({}, []);
const StepUpCode = Type.String({
  pattern: '^[0-9]{6}$',
  maxLength: 6,
  description: "A fresh code of the signer's authenticator (step-up)",
});
export const SignBody = obj({ code: StepUpCode });

const amendmentOf = <B extends (typeof AMENDABLE_BLOCKS)[number], P extends TProperties>(block: B, properties: P) =>
  obj({
    block: Type.Literal(block),
    changes: obj(properties, [], { minProperties: 1 }),
    reason: freeText(500, 'Why the signed record changes'),
    code: StepUpCode,
  });
const timesFields = {
  startedAt: described(DateTimeSchema, 'When the treatment began: not in the future, not after a reading'),
  endedAt: described(DateTimeSchema, 'When it ended: not in the future, after the start, not before a reading'),
};
const amendments = [
  amendmentOf('pre', preFields),
  amendmentOf('post', postFields),
  amendmentOf('safetyChecks', safetyFields),
  amendmentOf('times', timesFields),
] as const;
type Amendment = (typeof amendments)[number] extends infer A ? (A extends TObject ? Static<A> : never) : never;
/** One of the four, told apart by `block` (oneOf, as the contract has always said). */
export const AmendBody = Type.Unsafe<Amendment>({
  oneOf: [...amendments],
  description: 'Changes to one block of a signed session, with the reason; the original values stay in the history',
});
export const AddendumBody = obj({ text: freeText(4000), reason: freeText(500), code: StepUpCode });

export const StartBody = obj(
  {
    machineId: IdSchema,
    stationId: IdSchema,
    dialyzerId: IdSchema,
    arterialLineId: IdSchema,
    venousLineId: IdSchema,
    startedAt: described(DateTimeSchema, 'When the treatment began, charted after the fact (default now): not in the future'),
  },
  ['machineId'],
);
