// What the location routes share: paths, params types, write responses and the answer of a write.
import { ifMatchHeader } from '../../recordHeaders.js';
import { recordAnswer } from '../../recordAnswer.js';
import type { HttpResult, RequestContext } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { locationView } from '../../../projections/empresas/locationDoc.js';
import { locationAfterWrite } from '../../../queries/empresas/readModel.js';
import { conflict409, precondition412 } from '../shared/recordSupport.js';
import { locationNotFound404 } from './support.js';

export const BASE = '/empresas/actual/sedes';
export type LocationIdParams = { sedeId: string };
export type RoomIdParams = LocationIdParams & { salaId: string };
export type StationIdParams = LocationIdParams & { puestoId: string };
export type Reason = { reason: string };

export const optionalIfMatch = { 'If-Match': ifMatchHeader(false) };
export const writeResponses = { 404: locationNotFound404, 409: conflict409, 412: precondition412 };

/** The location as the read model has it after the write, with its ETag and position (and what the write created). */
const locationRecord = { latest: locationAfterWrite, view: locationView, location: (id: string) => `${BASE}/${id}` };
export const locationAnswer = (
  ctx: RequestContext,
  locationId: string,
  result: CommandResult<unknown>,
  status: 200 | 201,
  createdId?: string,
): Promise<HttpResult> => recordAnswer(ctx, locationRecord, locationId, result, status, createdId ? { extra: { createdId } } : {});
