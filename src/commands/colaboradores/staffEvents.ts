// Commands and events of a staff record (stream `<tenant>.staff-<staffId>`). Facts the decider cannot load itself
// (the job position named) come in with the command; who/when/why travel in the event metadata.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import type { HbvDose, IsoDate, Licence, PositionFacts, StaffPatch, StaffPersonal, StaffSerology } from './staffTypes.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the staff streams: written once, here (the decider, the writes and the read side take it). */
export const STAFF_CATEGORY = 'staff';
export const staffStream = (tenantId: string, staffId: string): string => streamName(tenantId, STAFF_CATEGORY, staffId);

export type HireStaffData = StaffPersonal & {
  positionId: string;
  position: PositionFacts;
  licence?: Licence;
  serology?: StaffSerology[];
  hbvVaccination?: HbvDose[];
  userId?: string;
};

export type StaffCommand =
  | CommandEnvelope<'HireStaff', HireStaffData>
  | CommandEnvelope<'CorrectStaffData', StaffPatch>
  | CommandEnvelope<'RegisterStaffLicence', Licence>
  | CommandEnvelope<'RecordStaffSerology', StaffSerology>
  | CommandEnvelope<'RecordStaffVaccination', HbvDose>
  | CommandEnvelope<'ChangeStaffPosition', { positionId: string; position: PositionFacts; effectiveDate?: IsoDate }>
  | CommandEnvelope<'LinkStaffToUser', { userId: string }>
  | CommandEnvelope<'TerminateStaff', { terminationDate: IsoDate; reason: string }>
  | CommandEnvelope<'RehireStaff', { hireDate: IsoDate; positionId: string; position: PositionFacts; reason: string }>;

export type StaffHiredData = StaffPersonal & {
  staffId: string;
  positionId: string;
  status: 'active';
  serology: StaffSerology[];
  hbvVaccination: HbvDose[];
};

export type StaffEvent =
  | DecidedEvent<'StaffHired', StaffHiredData>
  | DecidedEvent<'StaffDataCorrected', { changes: StaffPatch; previous: StaffPatch }>
  | DecidedEvent<'StaffLicenseRegistered', Licence>
  | DecidedEvent<'StaffLicenseRenewed', Licence & { previous: Licence }>
  | DecidedEvent<'StaffSerologyRecorded', StaffSerology>
  | DecidedEvent<'StaffVaccinationRecorded', HbvDose>
  | DecidedEvent<'StaffPositionChanged', { positionId: string; previousPositionId: string; effectiveDate: IsoDate }>
  | DecidedEvent<'StaffLinkedToUser', { userId: string; previousUserId: string | null }>
  | DecidedEvent<'StaffTerminated', { terminationDate: IsoDate; reason: string }>
  | DecidedEvent<
      'StaffRehired',
      { hireDate: IsoDate; previousHireDate: IsoDate; previousTerminationDate: IsoDate; positionId: string; reason: string }
    >;

export const STAFF_EVENT_TYPES: readonly StaffEvent['type'][] = [
  'StaffHired',
  'StaffDataCorrected',
  'StaffLicenseRegistered',
  'StaffLicenseRenewed',
  'StaffSerologyRecorded',
  'StaffVaccinationRecorded',
  'StaffPositionChanged',
  'StaffLinkedToUser',
  'StaffTerminated',
  'StaffRehired',
];
