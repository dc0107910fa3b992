// Schemas of the company export routes: what starts one, and its state with progress.
import Type from 'typebox';
import { closed, IdSchema, ReasonSchema, stringOrNull } from '../shared/fieldSchemas.js';

const Position = Type.String({ pattern: '^[0-9]{1,20}$' });

export const ExportParams = closed({ id: IdSchema });

export const ExportBody = closed({
  after: Type.Optional({ ...Position, description: "A previous export's `through`" }),
  reason: Type.Optional(ReasonSchema),
});

export const ExportJobSchema = Type.Object({
  id: IdSchema,
  state: Type.Union([Type.Literal('running'), Type.Literal('ready'), Type.Literal('failed')]),
  requestedBy: Type.String(),
  startedAt: Type.String({ format: 'date-time' }),
  finishedAt: stringOrNull({ format: 'date-time' }),
  expiresAt: stringOrNull({ format: 'date-time' }),
  after: Position,
  through: stringOrNull(),
  progress: Type.Object({
    phase: Type.Union([Type.Literal('events'), Type.Literal('records'), Type.Literal('done')]),
    eventsDone: Type.Integer({ minimum: 0 }),
    eventsTotal: Type.Integer({ minimum: 0 }),
    recordsDone: Type.Integer({ minimum: 0 }),
    percent: Type.Integer({ minimum: 0, maximum: 100 }),
    bytes: Type.Integer({ minimum: 0 }),
  }),
  error: Type.Optional(Type.String()),
});
