// The session as clients see it (schema) and the answer every session write gives: the session at least at the
// write's revision, with its ETag and event position.
import { recordAnswer, type RecordAnswerModel } from '../../recordAnswer.js';
import type { HttpResult, JsonSchema, RequestContext } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { INTERRUPTION_REASONS, SESSION_KINDS, SESSION_STATUSES } from '../../../commands/dialisis/session/sessionEvents.js';
import type { SessionDoc } from '../../../projections/dialisis/sessionDoc.js';
import { sessionAfterWrite } from '../../../queries/dialisis/sessions.js';
import { sessionWithClinical } from '../../../queries/dialisis/sessionClinicalView.js';
import { ClinicalView } from './clinicalSchemas.js';
import { DateSchema, DateTimeSchema, IdSchema, nullable } from '../shared/fieldSchemas.js';
import { ComplicationBody, MedicationBody, PostBody, PreBody, ReadingBody, SafetyBody, obj } from './sessionSchemas.js';

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
const actor = { type: 'string', description: 'Who recorded it (user:<id>, client:<id> or process:<name>)' };

/** An entry of a list (reading, complication, medication) with its id and who recorded it when. */
function entryOf(body: JsonSchema, idKey: string): JsonSchema {
  const b = body as { properties: Record<string, JsonSchema>; required: string[] };
  return obj({ ...b.properties, [idKey]: IdSchema, recordedAt: DateTimeSchema, recordedBy: actor }, [
    ...b.required,
    idKey,
    'recordedAt',
    'recordedBy',
  ]);
}

const mark = nullable(obj({ userId: IdSchema, staffId: IdSchema, at: DateTimeSchema }));
const signerMark = obj({ userId: IdSchema, staffId: IdSchema });
const stamp = { at: DateTimeSchema, by: actor };

export const SessionView: JsonSchema = obj(
  {
    id: IdSchema,
    revision: { type: 'integer', minimum: 0 },
    patientId: IdSchema,
    date: DateSchema,
    shiftId: IdSchema,
    locationId: IdSchema,
    kind: { enum: [...SESSION_KINDS] },
    planId: nullable(IdSchema),
    reason: nullableStr,
    requestedBy: nullable(IdSchema),
    lateEntryReason: { ...nullableStr, description: 'Why a session of a past date was charted after the fact' },
    backEntry: {
      type: 'boolean',
      description: "Charted after the fact before its machine's present: it took no live claim, its equipment's use counted as history",
    },
    status: { enum: [...SESSION_STATUSES], description: 'Derived from the history, never set directly' },
    checkedInAt: nullable(DateTimeSchema),
    startedAt: nullable(DateTimeSchema),
    endedAt: nullable(DateTimeSchema),
    effectiveMinutes: { type: ['number', 'null'], description: 'Treatment minutes without the pauses' },
    pauses: { type: 'array', items: obj({ pausedAt: DateTimeSchema, reason: str, resumedAt: nullable(DateTimeSchema) }) },
    interruption: nullable(
      obj(
        {
          reasonCode: { enum: [...INTERRUPTION_REASONS] },
          note: nullableStr,
          complicationId: { ...nullable(IdSchema), description: 'The complication (of this session) that caused it' },
          lostMinutes: { type: ['number', 'null'], description: 'Prescribed minutes not given (prescribed less effective)' },
          ...stamp,
        },
        ['reasonCode', 'note', ...Object.keys(stamp)],
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
    vascularAccess: nullable({
      ...obj({
        accessId: IdSchema,
        type: str,
        side: str,
        site: str,
        needles: nullable({ type: 'object', description: "The prescription's needle gauges and cannulation technique" }),
      }),
      description: "The access used, from the patient's record at the start: a later change never rewrites the session",
    }),
    prescription: nullable({
      type: 'object',
      description: "The prescription version the session runs under (a snapshot); its dryWeightKg is the patient's in force",
    }),
    dryWeight: {
      ...nullable(obj({ dryWeightKg: { type: 'number' }, effectiveDate: DateSchema })),
      description: "The patient's dry weight in force on the session's date (/pacientes/{id}/peso-seco), as the start used it",
    },
    startWarnings: {
      type: 'array',
      items: str,
      description: 'Warnings at start (e.g. preventive maintenance overdue under a warn policy)',
    },
    pre: nullable(PreBody),
    safetyChecks: nullable(SafetyBody),
    post: nullable(PostBody),
    readings: { type: 'array', items: entryOf(ReadingBody, 'readingId'), description: 'By time' },
    complications: { type: 'array', items: entryOf(ComplicationBody, 'complicationId') },
    medications: { type: 'array', items: entryOf(MedicationBody, 'medicationId') },
    nurseSignature: mark,
    physicianValidation: { ...mark, description: 'The validation in force; null while awaiting one (again, after an amendment)' },
    earlierValidations: {
      type: 'array',
      items: obj({ userId: IdSchema, staffId: IdSchema, at: DateTimeSchema }),
      description: 'Validations an amendment withdrew (the session went back to awaiting validation), oldest first',
    },
    amendments: {
      type: 'array',
      items: obj(
        {
          block: { enum: ['pre', 'post', 'safetyChecks', 'times'] },
          changes: { type: 'object' },
          previous: { type: 'object', description: 'The values before the amendment' },
          reason: str,
          amendedBy: { ...signerMark, description: 'The person who amended (staff record; a fresh code confirmed them)' },
          returnsToValidation: { const: true, description: 'It amended a validated session: the validation was withdrawn' },
          ...stamp,
        },
        ['block', 'changes', 'previous', 'reason', 'at', 'by'],
      ),
    },
    addenda: {
      type: 'array',
      items: obj({ text: str, reason: str, addedBy: { ...signerMark, description: 'The person who added it' }, ...stamp }, [
        'text',
        'reason',
        'at',
        'by',
      ]),
    },
    machineChanges: {
      type: 'array',
      description: 'Machines changed mid-session, oldest first: the old one ran minutesOnPrevious of the treatment',
      items: obj({
        fromMachineId: IdSchema,
        machineId: IdSchema,
        reason: str,
        changedAt: DateTimeSchema,
        minutesOnPrevious: { type: 'number' },
        ...stamp,
      }),
    },
    consequences: {
      type: 'array',
      description: 'What the end of the session did to its equipment and stock; a refused one is an alert',
      items: obj({
        kind: str,
        itemId: { type: 'string', description: 'The machine, dialyzer or line id; for a supply the product id, with :<lot> when named' },
        outcome: { enum: ['applied', 'refused'] },
        code: nullableStr,
        message: nullableStr,
        at: DateTimeSchema,
      }),
    },
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

/** The session after a write, with its clinical values (see recordAnswer); a 201 points at it. */
const sessionRecord: RecordAnswerModel<SessionDoc> = {
  latest: sessionAfterWrite,
  view: (doc, scope) => sessionWithClinical(scope, doc),
  location: (id) => `/dialisis/sesiones/${id}`,
};
export const sessionAnswer = (ctx: RequestContext, id: string, result: CommandResult<unknown>, status = 200): Promise<HttpResult> =>
  recordAnswer(ctx, sessionRecord, id, result, status);
