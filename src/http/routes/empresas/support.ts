// What every Empresas route shares: tag, permissions, problem responses.
import { problem } from '../../commonSchemas.js';

export const TAG = 'Empresas';
export const READ = 'empresas:read';
export const ADMIN = 'empresas:admin';

export const locationNotFound404 = problem(
  "No such location (or room, or station) in the selected company (another company's location is reported the same way)",
);
