// The staff record model: its collection, get, or404 and the read-after-write latest (waits for the projection, else
// folds the record's own stream).
import { recordModel } from '../recordModel.js';
import { COLABORADORES_PROJECTION, STAFF } from '../../projections/colaboradores/colaboradoresProjection.js';
import { foldStaff, type StaffDoc } from '../../projections/colaboradores/staffDoc.js';
import { STAFF_CATEGORY } from '../../commands/colaboradores/staffEvents.js';

/** The staff record: another company's record is exactly as absent. */
export const staffModel = recordModel<StaffDoc>({
  projection: COLABORADORES_PROJECTION,
  collection: STAFF,
  category: STAFF_CATEGORY,
  fold: foldStaff,
  notFound: 'Staff member not found',
});
export const staffRecords = staffModel.collection;
