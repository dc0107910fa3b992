// /clientes: register, list, read, correct (If-Match), deactivate, reactivate, history.
import Type from 'typebox';
import type { RouteDecl } from '../../routeTypes.js';
import { CLIENT_STATUSES, PAYER_TYPES } from '../../../commands/clientes/clientEvents.js';
import { clientCommand, correctClient, registerClient } from '../../../commands/clientes/clientWrites.js';
import { listClients } from '../../../queries/clientes/clients.js';
import { commandCtx } from '../shared/recordSupport.js';
import { CorrectBody, RegisterBody } from './schemas.js';
import { clients } from './support.js';

const statusAction = (path: string, type: 'DeactivateClient' | 'ReactivateClient', summary: string): RouteDecl =>
  clients.action({
    path,
    summary,
    handle: (id, body, ctx, ifMatch) => clientCommand(ctx.services.events, commandCtx(ctx, body.reason), id, { type, data: body }, ifMatch),
  });

export const clientRoutes: RouteDecl[] = [
  clients.create({
    summary: 'Register a client (payer)',
    description:
      'The tax id is checked for its country with its check digit (422 naming taxId/number) and is unique within the company ' +
      '(409 duplicate-tax-id). A new client is active.',
    body: RegisterBody,
    idKey: 'clientId',
    handle: (body, ctx) => registerClient(ctx.services.events, commandCtx(ctx), body),
  }),
  clients.list({
    summary: 'List clients by legal name, by status and payer type',
    legacyQuery: ['estado', 'tipo'],
    filters: { status: Type.Optional(Type.Enum(CLIENT_STATUSES)), payerType: Type.Optional(Type.Enum(PAYER_TYPES)) },
    list: listClients,
    prepared: {}, // made of the collection alone: prepared once per change of it
  }),
  clients.read({ summary: 'Read a client with its contracts' }),
  clients.patch({
    summary: "Correct a client's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the client changed). A new tax id (or country) ' +
      'is checked again and must still be unique (409). Status and contracts have their own routes.',
    body: CorrectBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctClient(ctx.services.events, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  statusAction('baja', 'DeactivateClient', 'Deactivate a client with a reason: it signs no contract and issues no authorization'),
  statusAction('reactivacion', 'ReactivateClient', 'Reactivate a client with a reason'),
  clients.history({ summary: "The client's history: registration, corrections, status, contracts; who, when, why, oldest first" }),
];
