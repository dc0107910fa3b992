// JSON Schemas of the schedule routes: shifts, standing plans, the day's generation, extra sessions and seats, declared
// once with TypeBox (each body's type is inferred from its schema).
import Type from 'typebox';
import type { IsoWeekday } from '../../../commands/dialisis/schedule/shiftEvents.js';
import { DateSchema, IdSchema, nullable, ReasonSchema, text } from '../shared/fieldSchemas.js';
import { described, freeText, obj } from './schemaParts.js';

const stamp = {
  createdAt: Type.String(),
  createdBy: Type.String(),
  updatedAt: Type.String(),
  updatedBy: Type.String(),
};
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24 h, local time' });
// An integer 1-7 is exactly an IsoWeekday: the schema says so, the type follows.
const Weekdays = Type.Array(Type.Unsafe<IsoWeekday>(Type.Integer({ minimum: 1, maximum: 7 })), {
  minItems: 1,
  maxItems: 7,
  description: 'ISO weekdays: 1 = Monday ... 7 = Sunday',
});

const shiftFields = {
  name: text(80),
  locationId: described(IdSchema, 'Location (sede) of the company'),
  weekdays: described(Weekdays, 'ISO weekdays the shift runs (1 = Monday ... 7 = Sunday); absent = every day'),
  dialysisStart: Time,
  dialysisEnd: described(Time, 'HH:MM, after dialysisStart'),
  cleaningMinutes: Type.Integer({ minimum: 0, maximum: 240, description: 'Cleaning window after the dialysis window' }),
  capacity: Type.Integer({ minimum: 1, maximum: 500, description: 'Nominal seats (planned and extra sessions)' }),
  reservedCapacity: Type.Integer({ minimum: 0, maximum: 100, description: 'Seats beyond the nominal ones that only emergencies may take' }),
};

export const ShiftBody = obj(shiftFields, ['name', 'locationId', 'dialysisStart', 'dialysisEnd', 'cleaningMinutes', 'reservedCapacity'], {
  description: "capacity defaults to the company policy's shifts.defaultCapacity",
});
export const ShiftPatchBody = obj(
  { ...shiftFields, weekdays: Type.Union([Weekdays, Type.Null()], { description: 'null: every day' }), reason: ReasonSchema },
  ['reason'],
  { minProperties: 2 },
);

export const ShiftView = obj(
  {
    id: IdSchema,
    ...shiftFields,
    status: Type.Enum(['active', 'retired']),
    retireReason: nullable(Type.String()),
    revision: Type.Integer(),
    ...stamp,
  },
  ['id', 'name', 'locationId', 'dialysisStart', 'dialysisEnd', 'cleaningMinutes', 'capacity', 'reservedCapacity', 'status', 'revision'],
);

export const PlanBody = obj(
  { patientId: IdSchema, shiftId: IdSchema, weekdays: Weekdays, effectiveFrom: DateSchema, effectiveTo: DateSchema },
  ['patientId', 'shiftId', 'weekdays', 'effectiveFrom'],
);
export const PlanEndBody = obj({ effectiveTo: described(DateSchema, 'Last day of the plan'), reason: ReasonSchema });
export const PlanView = obj(
  {
    id: IdSchema,
    patientId: IdSchema,
    shiftId: IdSchema,
    locationId: IdSchema,
    weekdays: Weekdays,
    effectiveFrom: DateSchema,
    effectiveTo: nullable(DateSchema),
    status: Type.Enum(['active', 'ended']),
    endReason: nullable(Type.String()),
    revision: Type.Integer({ description: "Revision of the patient's plan stream" }),
    ...stamp,
  },
  ['id', 'patientId', 'shiftId', 'weekdays', 'effectiveFrom', 'effectiveTo', 'status'],
);

export const GenerationBody = obj({ locationId: described(IdSchema, 'Only the plans of this location') }, []);
export const GenerationView = obj({
  date: DateSchema,
  scheduled: Type.Integer({ description: 'Sessions of the plans in effect the schedule holds: the same on every run' }),
  created: Type.Integer({ description: 'Of those, the ones this run wrote' }),
  sessions: Type.Array(obj({ sessionId: IdSchema, patientId: IdSchema, shiftId: IdSchema, planId: IdSchema, created: Type.Boolean() })),
  skipped: Type.Array(obj({ patientId: IdSchema, shiftId: IdSchema, planId: IdSchema, reason: Type.String() }), {
    description: 'Plans not scheduled and why: patient-<status> (never scheduled), shift-full, shift-retired, shift-not-running',
  }),
});

export const ExtraSessionBody = obj(
  {
    patientId: IdSchema,
    date: DateSchema,
    shiftId: IdSchema,
    kind: Type.Enum(['extra', 'emergency'], { description: 'An emergency may take the reserved seats' }),
    reason: freeText(500, 'Why the session is needed'),
    requestedBy: described(IdSchema, 'The requesting physician: a collaborator (colaborador) of the company'),
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
    kind: Type.Enum(['planned', 'extra', 'emergency']),
    status: Type.String(),
  },
  ['sessionId', 'patientId', 'date', 'shiftId', 'kind', 'status'],
);
export const CancelBody = obj({ reason: ReasonSchema });
export const NoShowBody = obj({ note: freeText(500) }, []);

export const OccupancyView = obj({
  shiftId: IdSchema,
  date: DateSchema,
  capacity: Type.Integer(),
  reservedCapacity: Type.Integer(),
  taken: obj({ planned: Type.Integer(), extra: Type.Integer(), emergency: Type.Integer(), total: Type.Integer() }),
  free: obj({ regular: Type.Integer(), emergency: Type.Integer() }),
  sessions: Type.Array(obj({ sessionId: IdSchema, patientId: IdSchema, kind: Type.String() })),
});
