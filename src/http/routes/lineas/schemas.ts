// JSON Schemas of /lineas-arteriales and /lineas-venosas: what clients send and what they read (same for both kinds),
// declared once with TypeBox.
import Type, { type TObject, type TProperties } from 'typebox';
import { freeText } from '../../commonSchemas.js';
import {
  DISCARD_REASONS,
  INTEGRITY_RESULTS,
  LINE_STATUSES,
  LINE_TYPES,
  RESIDUAL_RESULTS,
} from '../../../commands/lineas/bloodlineEvents.js';
import { DateSchema, DateTimeSchema, IdSchema, text } from '../shared/fieldSchemas.js';

const object = <P extends TProperties>(properties: P, description?: string): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

export const ReceiveBody = object({
  model: text(120),
  lot: text(60),
  serial: text(60, 'Unique within the company for this kind of line, compared trimmed and ignoring case'),
  primingVolumeMl: Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Priming volume (mL)' }),
  reusable: Type.Boolean({ description: 'Labelled for reuse; reuse still needs the company policy (bloodlineReuse.enabled)' }),
  receivedOn: DateSchema,
});

export const AssignBody = object({ patientId: IdSchema });
export const UseBody = object({ sessionId: IdSchema, patientId: IdSchema });
export const ReprocessBody = object({
  disinfectant: text(120, 'Disinfectant or germicide used'),
  integrity: Type.Enum(INTEGRITY_RESULTS, { description: 'Integrity/visual check: anything but passed discards the line' }),
  fillTime: Type.Optional(
    Type.String({
      format: 'date-time',
      description: "Start of the germicide dwell (default: now); the germicide's minimum dwell runs from it",
    }),
  ),
});
export const ResidualTestBody = object({
  result: Type.Enum(RESIDUAL_RESULTS, { description: 'Residual germicide test after rinsing: negative before the line is reused' }),
});
export const DiscardBody = object({
  reason: Type.Enum(DISCARD_REASONS),
  note: Type.Optional(freeText(500, 'What was seen')),
});
export const PairBody = object({ venosaId: IdSchema });

export const LineView = object({
  id: IdSchema,
  lineType: Type.Enum(LINE_TYPES),
  revision: Type.Integer({ minimum: 0 }),
  model: Type.String(),
  lot: Type.String(),
  serial: Type.String(),
  primingVolumeMl: Type.Number(),
  reusable: Type.Boolean(),
  receivedOn: DateSchema,
  status: Type.Enum(LINE_STATUSES, { description: 'discarded is terminal' }),
  patientId: Type.Optional(Type.String({ format: 'uuid', description: 'The owner, for life' })),
  partnerId: Type.Optional(Type.String({ format: 'uuid', description: 'The line of the other kind it is paired with' })),
  uses: Type.Integer({ minimum: 0 }),
  maxUses: Type.Integer({ minimum: 1, description: 'From the company policy when reuse is enabled; 1 otherwise' }),
  usesLeft: Type.Integer(),
  lastSessionId: Type.Optional(IdSchema),
  lastUsedAt: Type.Optional(DateTimeSchema),
  lastReprocessedAt: Type.Optional(DateTimeSchema),
  residualTest: Type.Optional(Type.Enum(['negative', 'positive'], { description: 'Residual germicide test since the last reprocessing' })),
  discardReason: Type.Optional(Type.Enum(DISCARD_REASONS)),
  reservation: Type.Optional(
    object(
      { sessionId: Type.String(), patientId: IdSchema, reservedAt: DateTimeSchema },
      'The running session that claimed it at its start (status in-use); absent otherwise',
    ),
  ),
  createdAt: DateTimeSchema,
  createdBy: Type.String(),
  updatedAt: DateTimeSchema,
  updatedBy: Type.String(),
});

export const ReadyView = object({
  policyRevision: Type.Integer({ description: 'Revision of the company policy the answer was judged by (-1: defaults)' }),
  items: Type.Array(
    object({
      line: LineView,
      ready: Type.Boolean(),
      reasons: Type.Array(
        Type.Enum([
          'in-use-by-another-session',
          'awaiting-reprocessing',
          'max-uses-reached',
          'residual-test-missing',
          'residual-test-positive',
        ]),
      ),
    }),
  ),
});
