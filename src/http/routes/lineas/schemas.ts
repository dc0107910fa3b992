// JSON Schemas of /lineas-arteriales and /lineas-venosas: what clients send and what they read (same for both kinds).
import type { JsonSchema } from '../../routeTypes.js';
import { freeText } from '../../commonSchemas.js';
import {
  DISCARD_REASONS,
  INTEGRITY_RESULTS,
  LINE_STATUSES,
  LINE_TYPES,
  RESIDUAL_RESULTS,
} from '../../../commands/lineas/bloodlineEvents.js';
import { DateSchema, DateTimeSchema, IdSchema, text } from '../shared/fieldSchemas.js';

const object = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export const ReceiveBody = object(['model', 'lot', 'serial', 'primingVolumeMl', 'reusable', 'receivedOn'], {
  model: text(120),
  lot: text(60),
  serial: { ...text(60), description: 'Unique within the company for this kind of line, compared trimmed and ignoring case' },
  primingVolumeMl: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Priming volume (mL)' },
  reusable: { type: 'boolean', description: 'Labelled for reuse; reuse still needs the company policy (bloodlineReuse.enabled)' },
  receivedOn: DateSchema,
});

export const AssignBody = object(['patientId'], { patientId: IdSchema });
export const UseBody = object(['sessionId', 'patientId'], { sessionId: IdSchema, patientId: IdSchema });
export const ReprocessBody = object(['disinfectant', 'integrity'], {
  disinfectant: text(120, 'Disinfectant or germicide used'),
  integrity: { enum: [...INTEGRITY_RESULTS], description: 'Integrity/visual check: anything but passed discards the line' },
  fillTime: { ...DateTimeSchema, description: "Start of the germicide dwell (default: now); the germicide's minimum dwell runs from it" },
});
export const ResidualTestBody = object(['result'], {
  result: { enum: [...RESIDUAL_RESULTS], description: 'Residual germicide test after rinsing: negative before the line is reused' },
});
export const DiscardBody = object(['reason'], {
  reason: { enum: [...DISCARD_REASONS] },
  note: freeText(500, 'What was seen'),
});
export const PairBody = object(['venosaId'], { venosaId: IdSchema });

export const LineView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'lineType',
    'revision',
    'model',
    'lot',
    'serial',
    'primingVolumeMl',
    'reusable',
    'receivedOn',
    'status',
    'uses',
    'maxUses',
    'usesLeft',
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
  ],
  properties: {
    id: IdSchema,
    lineType: { enum: [...LINE_TYPES] },
    revision: { type: 'integer', minimum: 0 },
    model: { type: 'string' },
    lot: { type: 'string' },
    serial: { type: 'string' },
    primingVolumeMl: { type: 'number' },
    reusable: { type: 'boolean' },
    receivedOn: DateSchema,
    status: { enum: [...LINE_STATUSES], description: 'discarded is terminal' },
    patientId: { ...IdSchema, description: 'The owner, for life' },
    partnerId: { ...IdSchema, description: 'The line of the other kind it is paired with' },
    uses: { type: 'integer', minimum: 0 },
    maxUses: { type: 'integer', minimum: 1, description: 'From the company policy when reuse is enabled; 1 otherwise' },
    usesLeft: { type: 'integer' },
    lastSessionId: IdSchema,
    lastUsedAt: DateTimeSchema,
    lastReprocessedAt: DateTimeSchema,
    residualTest: { enum: ['negative', 'positive'], description: 'Residual germicide test since the last reprocessing' },
    discardReason: { enum: [...DISCARD_REASONS] },
    reservation: {
      ...object(['sessionId', 'patientId', 'reservedAt'], {
        sessionId: { type: 'string' },
        patientId: IdSchema,
        reservedAt: DateTimeSchema,
      }),
      description: 'The running session that claimed it at its start (status in-use); absent otherwise',
    },
    createdAt: DateTimeSchema,
    createdBy: { type: 'string' },
    updatedAt: DateTimeSchema,
    updatedBy: { type: 'string' },
  },
};

export const ReadyView: JsonSchema = object(['policyRevision', 'items'], {
  policyRevision: { type: 'integer', description: 'Revision of the company policy the answer was judged by (-1: defaults)' },
  items: {
    type: 'array',
    items: object(['line', 'ready', 'reasons'], {
      line: LineView,
      ready: { type: 'boolean' },
      reasons: {
        type: 'array',
        items: {
          enum: [
            'in-use-by-another-session',
            'awaiting-reprocessing',
            'max-uses-reached',
            'residual-test-missing',
            'residual-test-positive',
          ],
        },
      },
    }),
  },
});
