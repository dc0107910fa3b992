// What every Empresas route shares: tag, permissions, problem responses.
import { problem } from '../../commonSchemas.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, ADMIN } = groupNames('empresas', 'Empresas');

export const locationNotFound404 = problem(
  "No such location (or room, or station) in the selected company (another company's location is reported the same way)",
);
