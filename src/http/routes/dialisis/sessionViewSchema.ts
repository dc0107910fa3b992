// The session as clients see it (every read and every write answers it), declared with TypeBox.
import Type, { type TObject } from 'typebox';
import { INTERRUPTION_REASONS, SESSION_KINDS, SESSION_STATUSES } from '../../../commands/dialisis/session/sessionEvents.js';
import { ClinicalView } from './clinicalSchemas.js';
import { DateSchema, DateTimeSchema, IdSchema, nullable } from '../shared/fieldSchemas.js';
import { described, obj } from './schemaParts.js';
import { ComplicationBody, MedicationBody, PostBody, PreBody, ReadingBody, SafetyBody } from './sessionSchemas.js';

const str = Type.String();
const nullableStr = nullable(Type.String());
const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const actor = Type.String({ description: 'Who recorded it (user:<id>, client:<id> or process:<name>)' });

/** An entry of a list (reading, complication, medication) with its id and who recorded it when. */
const entryOf = (body: TObject, idKey: string): TObject =>
  Type.Object(
    { ...body.properties, [idKey]: IdSchema, recordedAt: DateTimeSchema, recordedBy: actor },
    {
      additionalProperties: false,
    },
  );

const mark = nullable(obj({ userId: IdSchema, staffId: IdSchema, at: DateTimeSchema }));
const signerMark = (description: string) => obj({ userId: IdSchema, staffId: IdSchema }, undefined, { description });
const stamp = { at: DateTimeSchema, by: actor };

export const SessionView = obj(
  {
    id: IdSchema,
    revision: Type.Integer({ minimum: 0 }),
    patientId: IdSchema,
    date: DateSchema,
    shiftId: IdSchema,
    locationId: IdSchema,
    kind: Type.Enum(SESSION_KINDS),
    planId: nullable(IdSchema),
    reason: nullableStr,
    requestedBy: nullable(IdSchema),
    lateEntryReason: described(nullableStr, 'Why a session of a past date was charted after the fact'),
    backEntry: Type.Boolean({
      description: "Charted after the fact before its machine's present: it took no live claim, its equipment's use counted as history",
    }),
    status: Type.Enum(SESSION_STATUSES, { description: 'Derived from the history, never set directly' }),
    checkedInAt: nullable(DateTimeSchema),
    startedAt: nullable(DateTimeSchema),
    endedAt: nullable(DateTimeSchema),
    effectiveMinutes: nullableNumber('Treatment minutes without the pauses'),
    pauses: Type.Array(obj({ pausedAt: DateTimeSchema, reason: str, resumedAt: nullable(DateTimeSchema) })),
    interruption: nullable(
      obj(
        {
          reasonCode: Type.Enum(INTERRUPTION_REASONS),
          note: nullableStr,
          complicationId: described(nullable(IdSchema), 'The complication (of this session) that caused it'),
          lostMinutes: nullableNumber('Prescribed minutes not given (prescribed less effective)'),
          ...stamp,
        },
        ['reasonCode', 'note', 'at', 'by'],
      ),
    ),
    cancellation: nullable(obj({ reason: str, ...stamp })),
    noShow: nullable(obj({ note: nullableStr, ...stamp })),
    equipment: nullable(
      obj(
        {
          machineId: IdSchema,
          stationId: IdSchema,
          dialyzerId: nullable(IdSchema),
          arterialLineId: nullable(IdSchema),
          venousLineId: nullable(IdSchema),
        },
        ['machineId', 'dialyzerId', 'arterialLineId', 'venousLineId'],
      ),
    ),
    vascularAccess: nullable(
      obj(
        {
          accessId: IdSchema,
          type: str,
          side: str,
          site: str,
          needles: nullable(Type.Object({}, { description: "The prescription's needle gauges and cannulation technique" })),
        },
        undefined,
        { description: "The access used, from the patient's record at the start: a later change never rewrites the session" },
      ),
    ),
    prescription: nullable(
      Type.Object(
        {},
        { description: "The prescription version the session runs under (a snapshot); its dryWeightKg is the patient's in force" },
      ),
    ),
    dryWeight: described(
      nullable(obj({ dryWeightKg: Type.Number(), effectiveDate: DateSchema })),
      "The patient's dry weight in force on the session's date (/pacientes/{id}/peso-seco), as the start used it",
    ),
    startWarnings: Type.Array(str, { description: 'Warnings at start (e.g. preventive maintenance overdue under a warn policy)' }),
    pre: nullable(PreBody),
    safetyChecks: nullable(SafetyBody),
    post: nullable(PostBody),
    readings: Type.Array(entryOf(ReadingBody, 'readingId'), { description: 'By time' }),
    complications: Type.Array(entryOf(ComplicationBody, 'complicationId')),
    medications: Type.Array(entryOf(MedicationBody, 'medicationId')),
    nurseSignature: mark,
    physicianValidation: described(mark, 'The validation in force; null while awaiting one (again, after an amendment)'),
    earlierValidations: Type.Array(obj({ userId: IdSchema, staffId: IdSchema, at: DateTimeSchema }), {
      description: 'Validations an amendment withdrew (the session went back to awaiting validation), oldest first',
    }),
    amendments: Type.Array(
      obj(
        {
          block: Type.Enum(['pre', 'post', 'safetyChecks', 'times']),
          changes: Type.Object({}),
          previous: Type.Object({}, { description: 'The values before the amendment' }),
          reason: str,
          amendedBy: signerMark('The person who amended (staff record; a fresh code confirmed them)'),
          returnsToValidation: Type.Literal(true, { description: 'It amended a validated session: the validation was withdrawn' }),
          ...stamp,
        },
        ['block', 'changes', 'previous', 'reason', 'at', 'by'],
      ),
    ),
    addenda: Type.Array(
      obj({ text: str, reason: str, addedBy: signerMark('The person who added it'), ...stamp }, ['text', 'reason', 'at', 'by']),
    ),
    machineChanges: Type.Array(
      obj({
        fromMachineId: IdSchema,
        machineId: IdSchema,
        reason: str,
        changedAt: DateTimeSchema,
        minutesOnPrevious: Type.Number(),
        ...stamp,
      }),
      { description: 'Machines changed mid-session, oldest first: the old one ran minutesOnPrevious of the treatment' },
    ),
    consequences: Type.Array(
      obj({
        kind: str,
        itemId: Type.String({ description: 'The machine, dialyzer or line id; for a supply the product id, with :<lot> when named' }),
        outcome: Type.Enum(['applied', 'refused']),
        code: nullableStr,
        message: nullableStr,
        at: DateTimeSchema,
      }),
      { description: 'What the end of the session did to its equipment and stock; a refused one is an alert' },
    ),
    clinical: ClinicalView,
    createdAt: DateTimeSchema,
    createdBy: actor,
    updatedAt: DateTimeSchema,
    updatedBy: actor,
  },
  [
    'id',
    'revision',
    'patientId',
    'date',
    'shiftId',
    'locationId',
    'kind',
    'status',
    'readings',
    'complications',
    'medications',
    'earlierValidations',
    'amendments',
    'addenda',
    'consequences',
    'clinical',
  ],
);
