// /cargos-laborales: create, list, read, correct (If-Match), deactivate, reactivate, and the position's history.
import Type from 'typebox';
import { type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { roleOf } from '../../../permissions/builtInRoles.js';
import { platformCollections } from '../../../queries/platform/memberships.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { ProblemError } from '../../../problems.js';
import { POSITION_STATUSES } from '../../../commands/cargos-laborales/jobPositionEvents.js';
import { changePositionStatus, correctJobPosition, createJobPosition } from '../../../commands/cargos-laborales/jobPositionWrites.js';
import { jobPositionView } from '../../../projections/cargos-laborales/jobPositionDoc.js';
import { jobPositionModel, listJobPositions } from '../../../queries/cargos-laborales/jobPositions.js';
import { commandCtx, tenantCtx } from '../shared/recordSupport.js';
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

/** Suggested roles name roles of this company (built-in or its own): 422 naming suggestedRoles otherwise. */
async function mustBeCompanyRoles(ctx: RequestContext, roles: string[]): Promise<void> {
  const company = await platformCollections(ctx.services).companies.get(PLATFORM_DOCS, tenantCtx(ctx).auth.tenantId);
  const unknown = roles.filter((code) => !roleOf(company?.roles ?? {}, code));
  if (unknown.length === 0) return;
  const message = `not roles of this company: ${unknown.join(', ')}`;
  throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', `suggestedRoles: ${message}`, {}, [
    { pointer: '/body/suggestedRoles', message },
  ]);
}

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
    handle: async (body, ctx) => {
      const suggestedRoles = body.suggestedRoles ?? [];
      await mustBeCompanyRoles(ctx, suggestedRoles);
      const { positionId, result } = await createJobPosition(ctx.services.events, commandCtx(ctx), { ...body, suggestedRoles });
      return { id: positionId, result };
    },
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
    handle: async (id, { reason, ...patch }, ctx, ifMatch) => {
      if (patch.suggestedRoles) {
        // Another company's position answers 404 before its body is judged.
        await jobPositionModel.mustExist(tenantCtx(ctx), id);
        await mustBeCompanyRoles(ctx, patch.suggestedRoles);
      }
      return correctJobPosition(ctx.services.events, commandCtx(ctx, reason), id, patch, ifMatch);
    },
  }),
  statusAction('desactivacion', 'DeactivateJobPosition', 'Deactivate a job position (its staff keep it; no one new gets it)'),
  statusAction('reactivacion', 'ReactivateJobPosition', 'Reactivate a job position'),
  positions.history({ summary: "The position's history: who, when, why and what of every change, oldest first" }),
];
