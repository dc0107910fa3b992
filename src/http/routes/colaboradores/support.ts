// What every Colaboradores route shares: the staff record's route kit (its 404 and write answer).
import { staffView } from '../../../projections/colaboradores/staffDoc.js';
import { staffModel } from '../../../queries/colaboradores/staffRecords.js';
import { recordKit } from '../shared/recordRoutes.js';
import { READ, StaffView, TAG, WRITE } from './schemas.js';

/** Staff reads are in the access audit (staff, staffList). */
export const staff = recordKit({
  tag: TAG,
  base: '/colaboradores',
  read: READ,
  write: WRITE,
  noun: 'staff record',
  model: staffModel,
  view: staffView,
  viewSchema: StaffView,
  auditAs: 'staff',
});
