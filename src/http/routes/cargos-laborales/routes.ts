// /cargos-laborales: create, list, read, correct (If-Match), deactivate, reactivate, and the position's history.
import Type from 'typebox';
import { type RouteDecl } from '../../routeTypes.js';
import { POSITION_STATUSES } from '../../../commands/cargos-laborales/jobPositionEvents.js';
import { changePositionStatus, correctJobPosition, createJobPosition } from '../../../commands/cargos-laborales/jobPositionWrites.js';
import { jobPositionView } from '../../../projections/cargos-laborales/jobPositionDoc.js';
import { jobPositionModel, listJobPositions } from '../../../queries/cargos-laborales/jobPositions.js';
import { commandCtx } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { CorrectPositionBody, CreatePositionBody, PositionView, READ, TAG, WRITE } from './schemas.js';

const positions = recordKit({
  tag: TAG,
  base: '/cargos-laborales',
  read: READ,
  write: WRITE,
  noun: 'job position',
  model: jobPositionModel,
  view: jobPositionView,
  viewSchema: PositionView,
});

const statusAction = (path: string, type: 'DeactivateJobPosition' | 'ReactivateJobPosition', summary: string): RouteDecl =>
  positions.action({
    path,
    summary,
    handle: (id, { reason }, ctx, ifMatch) => changePositionStatus(ctx.services.events, commandCtx(ctx, reason), id, type, reason, ifMatch),
  });

export const cargosRoutes: RouteDecl[] = [
  positions.create({
    summary: 'Create a job position',
    description: 'The code is unique within the company (trimmed, ignoring case): a second one answers 409 duplicate-code.',
    body: CreatePositionBody,
    idKey: 'positionId',
    handle: (body, ctx) => createJobPosition(ctx.services, commandCtx(ctx), { ...body, suggestedRoles: body.suggestedRoles ?? [] }),
  }),
  positions.list({
    summary: 'List job positions by code',
    filters: { status: Type.Optional(Type.Enum(POSITION_STATUSES)) },
    list: listJobPositions,
  }),
  positions.read({ summary: 'Read a job position' }),
  positions.patch({
    summary: 'Correct a job position',
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the position changed). A new code must still be unique (409).',
    body: CorrectPositionBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctJobPosition(ctx.services, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  statusAction('desactivacion', 'DeactivateJobPosition', 'Deactivate a job position (its staff keep it; no one new gets it)'),
  statusAction('reactivacion', 'ReactivateJobPosition', 'Reactivate a job position'),
  positions.history({ summary: "The position's history: who, when, why and what of every change, oldest first" }),
];
