// JSON Schemas of the schedule routes: shifts, standing plans, the day's generation, extra sessions and seats.
import type { JsonSchema } from '../../routeTypes.js';
import { DateSchema, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';
import { freeText } from '../../commonSchemas.js';

const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const stamp = {
  createdAt: { type: 'string' },
  createdBy: { type: 'string' },
  updatedAt: { type: 'string' },
  updatedBy: { type: 'string' },
};
const Time: JsonSchema = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24 h, local time' };
const Weekdays: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 7,
  items: { type: 'integer', minimum: 1, maximum: 7 },
  description: 'ISO weekdays: 1 = Monday ... 7 = Sunday',
};

const shiftFields: Record<string, JsonSchema> = {
  name: text(80),
  locationId: { ...IdSchema, description: 'Location (sede) of the company' },
  weekdays: { ...Weekdays, description: 'ISO weekdays the shift runs (1 = Monday ... 7 = Sunday); absent = every day' },
  dialysisStart: Time,
  dialysisEnd: { ...Time, description: 'HH:MM, after dialysisStart' },
  cleaningMinutes: { type: 'integer', minimum: 0, maximum: 240, description: 'Cleaning window after the dialysis window' },
  capacity: { type: 'integer', minimum: 1, maximum: 500, description: 'Nominal seats (planned and extra sessions)' },
  reservedCapacity: {
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description: 'Seats beyond the nominal ones that only emergencies may take',
  },
};

export const ShiftBody = {
  ...obj(shiftFields, ['name', 'locationId', 'dialysisStart', 'dialysisEnd', 'cleaningMinutes', 'reservedCapacity']),
  description: "capacity defaults to the company policy's shifts.defaultCapacity",
};
export const ShiftPatchBody: JsonSchema = {
  ...obj({ ...shiftFields, weekdays: { anyOf: [Weekdays, { type: 'null' }], description: 'null: every day' }, reason: ReasonSchema }, [
    'reason',
  ]),
  minProperties: 2,
};
export const ReasonBody = obj({ reason: ReasonSchema });

export const ShiftView = obj(
  {
    id: IdSchema,
    ...shiftFields,
    status: { enum: ['active', 'retired'] },
    retireReason: { type: ['string', 'null'] },
    revision: { type: 'integer' },
    ...stamp,
  },
  ['id', 'name', 'locationId', 'dialysisStart', 'dialysisEnd', 'cleaningMinutes', 'capacity', 'reservedCapacity', 'status', 'revision'],
);

export const PlanBody = obj(
  { patientId: IdSchema, shiftId: IdSchema, weekdays: Weekdays, effectiveFrom: DateSchema, effectiveTo: DateSchema },
  ['patientId', 'shiftId', 'weekdays', 'effectiveFrom'],
);
export const PlanEndBody = obj({ effectiveTo: { ...DateSchema, description: 'Last day of the plan' }, reason: ReasonSchema });
export const PlanView = obj(
  {
    id: IdSchema,
    patientId: IdSchema,
    shiftId: IdSchema,
    locationId: IdSchema,
    weekdays: Weekdays,
    effectiveFrom: DateSchema,
    effectiveTo: { anyOf: [DateSchema, { type: 'null' }] },
    status: { enum: ['active', 'ended'] },
    endReason: { type: ['string', 'null'] },
    revision: { type: 'integer', description: "Revision of the patient's plan stream" },
    ...stamp,
  },
  ['id', 'patientId', 'shiftId', 'weekdays', 'effectiveFrom', 'effectiveTo', 'status'],
);

export const GenerationBody = obj({ locationId: { ...IdSchema, description: 'Only the plans of this location' } }, []);
export const GenerationView = obj({
  date: DateSchema,
  scheduled: { type: 'integer', description: 'Sessions of the plans in effect the schedule holds: the same on every run' },
  created: { type: 'integer', description: 'Of those, the ones this run wrote' },
  sessions: {
    type: 'array',
    items: obj({ sessionId: IdSchema, patientId: IdSchema, shiftId: IdSchema, planId: IdSchema, created: { type: 'boolean' } }),
  },
  skipped: {
    type: 'array',
    description: 'Plans not scheduled and why: patient-<status> (never scheduled), shift-full, shift-retired, shift-not-running',
    items: obj({ patientId: IdSchema, shiftId: IdSchema, planId: IdSchema, reason: { type: 'string' } }),
  },
});

export const ExtraSessionBody = obj(
  {
    patientId: IdSchema,
    date: DateSchema,
    shiftId: IdSchema,
    kind: { enum: ['extra', 'emergency'], description: 'An emergency may take the reserved seats' },
    reason: freeText(500, 'Why the session is needed'),
    requestedBy: { ...IdSchema, description: 'The requesting physician: a collaborator (colaborador) of the company' },
    lateEntryReason: freeText(500, 'A session of a past date (back-entry, e.g. after a downtime) needs the reason it is charted late'),
  },
  ['patientId', 'date', 'shiftId', 'kind', 'reason', 'requestedBy'],
);
export const SessionSlotView = obj(
  {
    sessionId: IdSchema,
    patientId: IdSchema,
    date: DateSchema,
    shiftId: IdSchema,
    locationId: IdSchema,
    kind: { enum: ['planned', 'extra', 'emergency'] },
    status: { type: 'string' },
  },
  ['sessionId', 'patientId', 'date', 'shiftId', 'kind', 'status'],
);
export const CancelBody = obj({ reason: ReasonSchema });
export const NoShowBody = obj({ note: freeText(500) }, []);

export const OccupancyView = obj({
  shiftId: IdSchema,
  date: DateSchema,
  capacity: { type: 'integer' },
  reservedCapacity: { type: 'integer' },
  taken: obj({ planned: { type: 'integer' }, extra: { type: 'integer' }, emergency: { type: 'integer' }, total: { type: 'integer' } }),
  free: obj({ regular: { type: 'integer' }, emergency: { type: 'integer' } }),
  sessions: { type: 'array', items: obj({ sessionId: IdSchema, patientId: IdSchema, kind: { type: 'string' } }) },
});
