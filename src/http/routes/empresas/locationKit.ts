// The location record's route kit (read, list, open, correct, close, history and the write answer the room and
// station routes share), with what those routes add: path, optional If-Match, write responses.
import { ifMatchHeader } from '../../recordHeaders.js';
import { locationView } from '../../../projections/empresas/locationDoc.js';
import { locationModel } from '../../../queries/empresas/readModel.js';
import { conflict409, precondition412 } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { ADMIN, locationNotFound404, READ, TAG } from './support.js';
import { LocationView } from './locationSchemas.js';

export const BASE = '/empresas/actual/sedes';

export const locationKit = recordKit({
  tag: TAG,
  base: BASE,
  read: READ,
  write: ADMIN,
  noun: 'location',
  model: locationModel,
  view: locationView,
  viewSchema: LocationView,
  idParam: 'sedeId',
  notFound404: locationNotFound404,
});

export const optionalIfMatch = { 'If-Match': ifMatchHeader(false) };
export const writeResponses = { 404: locationNotFound404, 409: conflict409, 412: precondition412 };
