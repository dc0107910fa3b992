// JSON Schemas of what clients send to /pacientes/{id}/notas (a note, an amendment), declared once with TypeBox;
// the content fields are also those the note's views show.
import Type, { type TOptional, type TString } from 'typebox';
import { NOTE_TYPES, SOAPIE_PARTS } from '../../../commands/pacientes/nursingNoteEvents.js';
import { freeText } from '../../commonSchemas.js';
import { IdSchema, nullable, ReasonSchema, text } from '../shared/fieldSchemas.js';

const strict = { additionalProperties: false } as const;

const SoapieSchema = Type.Object(
  Object.fromEntries(SOAPIE_PARTS.map((part) => [part, Type.Optional(freeText(4000))])) as {
    [K in (typeof SOAPIE_PARTS)[number]]: TOptional<TString>;
  },
  { ...strict, minProperties: 1, description: 'SOAPIE parts (any subset)' },
);

/** The content of a note and of each of its versions. */
export const noteContent = {
  noteType: Type.Enum(NOTE_TYPES),
  text: freeText(10000, 'What was observed or done'),
  soapie: SoapieSchema,
  authorLicence: text(50, 'Professional licence number of the author'),
  occurredAt: Type.String({ format: 'date-time', description: 'When the observed facts happened (default: now)' }),
  dialysisSessionId: IdSchema,
};

export const RecordNoteBody = Type.Object(
  {
    noteType: noteContent.noteType,
    text: Type.Optional(noteContent.text),
    soapie: Type.Optional(noteContent.soapie),
    authorLicence: Type.Optional(noteContent.authorLicence),
    occurredAt: Type.Optional(noteContent.occurredAt),
    dialysisSessionId: Type.Optional(noteContent.dialysisSessionId),
  },
  {
    ...strict,
    description:
      'Free text and/or SOAPIE parts (at least one). The author is the signed-in user. A dialysisSessionId must name a session ' +
      "of this patient in this company (422 naming it; another company's session is reported as absent).",
  },
);

export const AmendNoteBody = Type.Object(
  {
    reason: ReasonSchema,
    noteType: Type.Optional(noteContent.noteType),
    occurredAt: Type.Optional(noteContent.occurredAt),
    text: Type.Optional(nullable(noteContent.text)),
    soapie: Type.Optional(nullable(noteContent.soapie)),
    authorLicence: Type.Optional(nullable(noteContent.authorLicence)),
    dialysisSessionId: Type.Optional(nullable(noteContent.dialysisSessionId)),
  },
  { ...strict, description: 'A new version: parts omitted keep their value, null clears an optional part. The original stays readable.' },
);
