// JSON Schemas of what /pacientes answers: the patient, its nursing notes and its history.
import type { JsonSchema } from '../../routeTypes.js';
import { ConsistencyTokenSchema } from '../../commonSchemas.js';
import { LIMITS } from '../../../limits.js';
import { ACCESS_STATUSES, ISOLATIONS, PATIENT_STATUSES } from '../../../commands/pacientes/patientTypes.js';
import { noteContent } from './noteSchemas.js';
import { PATIENT_SUMMARY_FIELDS } from '../../../queries/pacientes/pacientesQueries.js';
import { PATIENT_LISTS, type PatientList } from '../../../projections/pacientes/patientEntries.js';
import {
  AddressSchema,
  AllergyInputSchema,
  ContactSchema,
  CoverageInputSchema,
  CreateAccessBody,
  DateSchema,
  DateTimeSchema,
  EmergencyContactSchema,
  IdSchema,
  RegisterPatientBody,
  SerologyInputSchema,
  text,
  WeightSchema,
} from './patientSchemas.js';

const props = (schema: JsonSchema): Record<string, JsonSchema> => schema.properties as Record<string, JsonSchema>;
const stamp = { recordedAt: DateTimeSchema, recordedBy: { type: 'string', description: 'User id of who recorded it' } };
const stamped = (schema: JsonSchema, extra: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: [...((schema.required as string[] | undefined) ?? []), ...required, 'recordedAt', 'recordedBy'],
  properties: { ...props(schema), ...extra, ...stamp },
});

const demographicsOut = Object.fromEntries(
  Object.entries(props(RegisterPatientBody)).filter(([k]) => !['allergies', 'serology', 'coverages'].includes(k)),
);

export const AccessView = stamped(
  CreateAccessBody,
  {
    accessId: IdSchema,
    status: { enum: [...ACCESS_STATUSES] },
    statusDate: DateSchema,
    statusReason: text(500),
    primary: { type: 'boolean' },
  },
  ['accessId', 'status', 'statusDate', 'primary'],
);

/** Where every entry of each list is paged: GET /pacientes/{id}<path>. */
export const PATIENT_LIST_PATHS: Record<PatientList, string> = {
  dryWeightHistory: '/peso-seco',
  serology: '/serologias',
  allergies: '/alergias',
  coverages: '/coberturas',
  vascularAccesses: '/accesos-vasculares',
};

/** One entry of each list, as the record and the list's own pages show it. */
export const PatientListItems: Record<PatientList, JsonSchema> = {
  dryWeightHistory: {
    type: 'object',
    additionalProperties: false,
    required: ['dryWeightKg', 'effectiveDate', 'recordedAt', 'recordedBy'],
    properties: { dryWeightKg: WeightSchema, effectiveDate: DateSchema, prescribedBy: text(150), ...stamp },
  },
  serology: stamped(SerologyInputSchema, {}, []),
  allergies: stamped(AllergyInputSchema, { allergyId: IdSchema }, ['allergyId']),
  coverages: stamped(
    CoverageInputSchema,
    { coverageId: IdSchema, status: { enum: ['active', 'ended'] }, endDate: DateSchema, endReason: text(500) },
    ['coverageId', 'status'],
  ),
  vascularAccesses: AccessView,
};

const cappedList = (list: PatientList): JsonSchema => ({
  type: 'array',
  maxItems: LIMITS.patientRecord[list],
  items: PatientListItems[list],
  description:
    `The latest ${LIMITS.patientRecord[list]} at most, oldest first` +
    (list === 'coverages' || list === 'vascularAccesses' ? ' (settled ones leave first)' : '') +
    `; every one at GET /pacientes/{id}${PATIENT_LIST_PATHS[list]}`,
});

export const PatientView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'revision',
    'documentType',
    'documentNumber',
    'givenNames',
    'familyNames',
    'sex',
    'birthDate',
    'admissionDate',
    'status',
    'statusDate',
    'dryWeightHistory',
    'serology',
    'isolation',
    'allergies',
    'coverages',
    'vascularAccesses',
    'entryCounts',
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
  ],
  properties: {
    id: IdSchema,
    revision: { type: 'integer', minimum: 0, description: 'Stream revision; the ETag is W/"<revision>"' },
    ...demographicsOut,
    contact: ContactSchema,
    address: AddressSchema,
    emergencyContact: EmergencyContactSchema,
    status: { enum: [...PATIENT_STATUSES] },
    statusReason: text(500),
    statusDate: DateSchema,
    dryWeightKg: WeightSchema,
    ...Object.fromEntries(PATIENT_LISTS.map((list) => [list, cappedList(list)])),
    isolation: {
      type: 'array',
      items: { enum: [...ISOLATIONS] },
      description: 'Implied by the latest serology: HBsAg+ -> HBV, anti-HCV+ -> HCV, HIV+ -> HIV',
    },
    entryCounts: {
      type: 'object',
      additionalProperties: false,
      required: [...PATIENT_LISTS],
      description: 'How many entries each list holds in all (the record keeps the latest; every one is paged at its own path)',
      properties: Object.fromEntries(PATIENT_LISTS.map((list) => [list, { type: 'integer', minimum: 0 }])),
    },
    createdAt: DateTimeSchema,
    createdBy: { type: 'string' },
    updatedAt: DateTimeSchema,
    updatedBy: { type: 'string' },
  },
};

/** List items: the census columns (PATIENT_SUMMARY_FIELDS), not the whole record. */
export const PatientSummary: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: PATIENT_SUMMARY_FIELDS.filter((f) => f !== 'dryWeightKg'),
  properties: Object.fromEntries(PATIENT_SUMMARY_FIELDS.map((f) => [f, props(PatientView)[f]!])),
};

export const NoteVersionView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'noteType', 'occurredAt', 'recordedAt', 'recordedBy'],
  properties: {
    version: { type: 'integer', minimum: 1 },
    ...noteContent,
    recordedAt: DateTimeSchema,
    recordedBy: { type: 'string' },
    reason: text(500),
  },
};
const noteBase = {
  id: IdSchema,
  patientId: IdSchema,
  revision: { type: 'integer', minimum: 0 },
  version: { type: 'integer', minimum: 1 },
  ...noteContent,
  authorId: { type: 'string', description: 'User id of the nurse who wrote version 1' },
  recordedAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  amended: { type: 'boolean' },
};
const noteRequired = ['id', 'patientId', 'revision', 'version', 'noteType', 'occurredAt', 'authorId', 'recordedAt', 'updatedAt', 'amended'];
export const NoteSummary: JsonSchema = { type: 'object', additionalProperties: false, required: noteRequired, properties: noteBase };
export const NoteView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...noteRequired, 'versionCount', 'versions'],
  properties: {
    ...noteBase,
    versionCount: { type: 'integer', minimum: 1, description: 'How many versions the note has; none is ever overwritten' },
    versions: {
      type: 'array',
      items: NoteVersionView,
      description: `The latest versions (at most ${LIMITS.nursingNotes.versionsInline}), oldest first; every version at .../versiones`,
    },
  },
};

export const HistoryEntry: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['position', 'recordType', 'recordId', 'revision', 'type', 'occurredAt', 'actor', 'reason', 'data'],
  properties: {
    position: ConsistencyTokenSchema,
    recordType: { enum: ['patient', 'nursingNote'] },
    recordId: IdSchema,
    revision: { type: 'integer', minimum: 0 },
    type: { type: 'string', description: 'Event type, e.g. PatientRegistered, NursingNoteAmended' },
    occurredAt: DateTimeSchema,
    actor: { type: 'string', description: 'Who: user id' },
    reason: { type: ['string', 'null'], description: 'Why, when the command had a reason' },
    correlationId: { type: 'string' },
    data: { type: 'object', description: 'What: the event data' },
  },
};
