// Field schemas every group's routes share: ids, dates, bounded text, the reason of a change.
import type { JsonSchema } from '../../routeTypes.js';

export const text = (maxLength: number, description?: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  ...(description ? { description } : {}),
});
export const DateSchema: JsonSchema = { type: 'string', format: 'date', description: 'Calendar date YYYY-MM-DD' };
export const DateTimeSchema: JsonSchema = { type: 'string', format: 'date-time', description: 'Instant, ISO-8601 with offset' };
export const IdSchema: JsonSchema = { type: 'string', format: 'uuid' };
export const ReasonSchema = text(500, 'Why: recorded with the event and shown in the history');

/** The schema, or null. */
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
