// The Usuarios group: the people of a company (invitations, roles, memberships) and its API clients.
import type { GroupModule } from '../../groupModule.js';
import { apiClientsProjection } from '../../../projections/platform/apiClientsProjection.js';
import { apiClientRoutes } from './apiClientRoutes.js';
import { ADMIN, READ, TAG, userRoutes } from './userRoutes.js';
import { platformAccountRoutes } from './platformAccountRoutes.js';

export const usuariosGroup: GroupModule = {
  tag: TAG,
  description:
    'People of the selected company: invitations (pending until the person accepts them with a one-time token, valid 72 h), roles, revoked memberships, second-factor ' +
    'resets, and the platform deactivation of an account (every session ends at once). API clients (/integraciones) let programs ' +
    'sign in with OAuth 2.0 client credentials inside the company.',
  permissions: [READ, ADMIN],
  routes: [...userRoutes, ...platformAccountRoutes, ...apiClientRoutes],
  projections: [apiClientsProjection],
};
