// JSON Schemas of what /pacientes answers: the patient, its nursing notes and its history, declared once with TypeBox.
import Type, { type TInteger, type TObject, type TProperties, type TSchema } from 'typebox';
import { ConsistencyTokenSchema } from '../../commonSchemas.js';
import { FieldChangesSchema } from '../../recordHistoryAnswer.js';
import { LIMITS } from '../../../limits.js';
import { ACCESS_STATUSES, ISOLATIONS, PATIENT_STATUSES } from '../../../commands/pacientes/patientTypes.js';
import { noteContent } from './noteSchemas.js';
import { PATIENT_SUMMARY_FIELDS } from '../../../queries/pacientes/pacientesQueries.js';
import { PATIENT_LISTS, type PatientList } from '../../../projections/pacientes/patientEntries.js';
import {
  AllergyInputSchema,
  CoverageInputSchema,
  CreateAccessBody,
  DateSchema,
  DateTimeSchema,
  IdSchema,
  RegisterPatientBody,
  SerologyInputSchema,
  text,
  WeightSchema,
} from './patientSchemas.js';
import { stringOrNull } from '../shared/fieldSchemas.js';

const strict = { additionalProperties: false } as const;
const stamp = { recordedAt: DateTimeSchema, recordedBy: Type.String({ description: 'User id of who recorded it' }) };
/** An entry as recorded: what was sent, what the record adds (`extra`), who recorded it and when. */
const stamped = <P extends TProperties, E extends TProperties>(schema: TObject<P>, extra: E) =>
  Type.Object({ ...schema.properties, ...extra, ...stamp }, strict);

export const AccessView = stamped(CreateAccessBody, {
  accessId: IdSchema,
  status: Type.Enum(ACCESS_STATUSES),
  statusDate: DateSchema,
  statusReason: Type.Optional(text(500)),
  primary: Type.Boolean(),
});

/** Where every entry of each list is paged: GET /pacientes/{id}<path>. */
export const PATIENT_LIST_PATHS: Record<PatientList, string> = {
  dryWeightHistory: '/peso-seco',
  serology: '/serologias',
  allergies: '/alergias',
  coverages: '/coberturas',
  vascularAccesses: '/accesos-vasculares',
};

/** One entry of each list, as the record and the list's own pages show it. */
export const PatientListItems: Record<PatientList, TSchema> = {
  dryWeightHistory: Type.Object(
    { dryWeightKg: WeightSchema, effectiveDate: DateSchema, prescribedBy: Type.Optional(text(150)), ...stamp },
    strict,
  ),
  serology: stamped(SerologyInputSchema, {}),
  allergies: stamped(AllergyInputSchema, { allergyId: IdSchema }),
  coverages: stamped(CoverageInputSchema, {
    coverageId: IdSchema,
    status: Type.Enum(['active', 'ended']),
    endDate: Type.Optional(DateSchema),
    endReason: Type.Optional(text(500)),
  }),
  vascularAccesses: AccessView,
};

const cappedList = (list: PatientList) =>
  Type.Array(PatientListItems[list], {
    maxItems: LIMITS.patientRecord[list],
    description:
      `The latest ${LIMITS.patientRecord[list]} at most, oldest first` +
      (list === 'coverages' || list === 'vascularAccesses' ? ' (settled ones leave first)' : '') +
      `; every one at GET /pacientes/{id}${PATIENT_LIST_PATHS[list]}`,
  });
const byList = <S extends TSchema>(of: (list: PatientList) => S) =>
  Object.fromEntries(PATIENT_LISTS.map((list) => [list, of(list)])) as Record<PatientList, S>;

// The demographics as registered (optional ones stay optional), without the lists a registration brings along.
const { allergies: _a, serology: _s, coverages: _c, ...demographicsOut } = RegisterPatientBody.properties;

export const PatientView = Type.Object(
  {
    id: IdSchema,
    revision: Type.Integer({ minimum: 0, description: 'Stream revision; the ETag is W/"<revision>"' }),
    ...demographicsOut,
    status: Type.Enum(PATIENT_STATUSES),
    statusReason: Type.Optional(text(500)),
    statusDate: DateSchema,
    ...byList(cappedList),
    isolation: Type.Array(Type.Enum(ISOLATIONS), {
      description: 'Implied by the latest serology: HBsAg+ -> HBV, anti-HCV+ -> HCV, HIV+ -> HIV',
    }),
    entryCounts: Type.Object(
      byList((): TInteger => Type.Integer({ minimum: 0 })),
      {
        ...strict,
        description: 'How many entries each list holds in all (the record keeps the latest; every one is paged at its own path)',
      },
    ),
    createdAt: DateTimeSchema,
    createdBy: Type.String(),
    updatedAt: DateTimeSchema,
    updatedBy: Type.String(),
  },
  strict,
);

/** List items: the census columns (PATIENT_SUMMARY_FIELDS), not the whole record. */
export const PatientSummary = Type.Pick(PatientView, [...PATIENT_SUMMARY_FIELDS], strict);

const optionalContent = {
  noteType: noteContent.noteType,
  text: Type.Optional(noteContent.text),
  soapie: Type.Optional(noteContent.soapie),
  authorLicence: Type.Optional(noteContent.authorLicence),
  occurredAt: noteContent.occurredAt,
  dialysisSessionId: Type.Optional(noteContent.dialysisSessionId),
};
export const NoteVersionView = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    ...optionalContent,
    recordedAt: DateTimeSchema,
    recordedBy: Type.String(),
    reason: Type.Optional(text(500)),
  },
  strict,
);
const noteBase = {
  id: IdSchema,
  patientId: IdSchema,
  revision: Type.Integer({ minimum: 0 }),
  version: Type.Integer({ minimum: 1 }),
  ...optionalContent,
  authorId: Type.String({ description: 'User id of the nurse who wrote version 1' }),
  recordedAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  amended: Type.Boolean(),
};
export const NoteSummary = Type.Object(noteBase, strict);
export const NoteView = Type.Object(
  {
    ...noteBase,
    versionCount: Type.Integer({ minimum: 1, description: 'How many versions the note has; none is ever overwritten' }),
    versions: Type.Array(NoteVersionView, {
      description: `The latest versions (at most ${LIMITS.nursingNotes.versionsInline}), oldest first; every version at .../versiones`,
    }),
  },
  strict,
);

export const HistoryEntry = Type.Object(
  {
    position: Type.Unsafe<string>(ConsistencyTokenSchema),
    recordType: Type.Enum(['patient', 'nursingNote', 'moduleRecord']),
    recordId: IdSchema,
    revision: Type.Integer({ minimum: 0 }),
    type: Type.String({ description: 'Event type, e.g. PatientRegistered, NursingNoteAmended' }),
    occurredAt: DateTimeSchema,
    actor: Type.String({ description: 'Who: user id' }),
    reason: stringOrNull({ description: 'Why, when the command had a reason' }),
    correlationId: Type.Optional(Type.String()),
    data: Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'What: the event data' }),
    changes: Type.Optional(Type.Unsafe<unknown[]>(FieldChangesSchema)),
  },
  strict,
);
