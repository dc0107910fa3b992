// What every Empresas route shares: tag, permissions, problem responses.
import { problem } from '../../commonSchemas.js';
import type { JsonSchema } from '../../routeTypes.js';

export const TAG = 'Empresas';
export const READ = 'empresas:read';
export const ADMIN = 'empresas:admin';

export const IdSchema: JsonSchema = { type: 'string', format: 'uuid' };
export const text = (maxLength: number, description?: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  ...(description ? { description } : {}),
});
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

export const locationNotFound404 = problem(
  "No such location (or room, or station) in the selected company (another company's location is reported the same way)",
);
