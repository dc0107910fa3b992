// What the staff decider remembers of its history: only what its rules need. evolve never throws.
import type { StaffEvent } from './staffEvents.js';
import type { IsoDate, Licence, StaffPatch, StaffPersonal, StaffStatus } from './staffTypes.js';

export interface StaffState {
  exists: boolean;
  status: StaffStatus;
  personal: StaffPersonal | null;
  positionId: string | null;
  licence: Licence | null;
  /** HBV vaccine doses already recorded (a dose is recorded once). */
  doses: number[];
  userId: string | null;
  terminationDate: IsoDate | null;
}

export const initialStaffState: StaffState = {
  exists: false,
  status: 'active',
  personal: null,
  positionId: null,
  licence: null,
  doses: [],
  userId: null,
  terminationDate: null,
};

export function applyStaffPatch(current: StaffPersonal, patch: StaffPatch): StaffPersonal {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as StaffPersonal;
}

export function evolveStaff(state: StaffState, event: StaffEvent): StaffState {
  switch (event.type) {
    case 'StaffHired': {
      const { staffId: _id, positionId, status, serology: _s, hbvVaccination, ...personal } = event.data;
      return { ...initialStaffState, exists: true, status, personal, positionId, doses: hbvVaccination.map((d) => d.dose) };
    }
    case 'StaffDataCorrected':
      return state.personal ? { ...state, personal: applyStaffPatch(state.personal, event.data.changes) } : state;
    case 'StaffLicenseRegistered':
      return { ...state, licence: event.data };
    case 'StaffLicenseRenewed': {
      const { previous: _p, ...licence } = event.data;
      return { ...state, licence };
    }
    case 'StaffSerologyRecorded':
      return state;
    case 'StaffVaccinationRecorded':
      return { ...state, doses: [...state.doses, event.data.dose] };
    case 'StaffPositionChanged':
      return { ...state, positionId: event.data.positionId };
    case 'StaffLinkedToUser':
      return { ...state, userId: event.data.userId };
    case 'StaffTerminated':
      return { ...state, status: 'terminated', terminationDate: event.data.terminationDate };
    case 'StaffRehired':
      return {
        ...state,
        status: 'active',
        terminationDate: null,
        positionId: event.data.positionId,
        personal: state.personal ? { ...state.personal, hireDate: event.data.hireDate } : state.personal,
      };
  }
}
