// What the bloodline decider remembers of a line's history (both kinds): what its rules need. evolve never throws.
import type { BloodlineEvent, LineStatus, LineType } from './bloodlineEvents.js';

export interface BloodlineState {
  exists: boolean;
  lineType: LineType | null;
  reusable: boolean;
  status: LineStatus;
  patientId: string | null;
  uses: number;
  maxUses: number;
  partnerId: string | null;
  lastSessionId: string | null;
  /** The running session that claimed it at its start, and the status a release gives back. */
  reservation: { sessionId: string; patientId: string; reservedAt: string; statusBefore: LineStatus } | null;
}

export const initialBloodlineState: BloodlineState = {
  exists: false,
  lineType: null,
  reusable: false,
  status: 'in-stock',
  patientId: null,
  uses: 0,
  maxUses: 1,
  partnerId: null,
  lastSessionId: null,
  reservation: null,
};

export function evolveBloodline(state: BloodlineState, event: BloodlineEvent): BloodlineState {
  switch (event.type) {
    case 'BloodlineReceived':
      return { ...initialBloodlineState, exists: true, lineType: event.data.lineType, reusable: event.data.reusable };
    case 'BloodlineAssignedToPatient':
      return { ...state, status: 'assigned', patientId: event.data.patientId, maxUses: event.data.maxUses };
    case 'BloodlineReservedForSession': {
      const { sessionId, patientId, reservedAt, statusBefore } = event.data;
      return { ...state, status: 'in-use', reservation: { sessionId, patientId, reservedAt, statusBefore } };
    }
    case 'BloodlineReservationReleased':
      return { ...state, status: event.data.status, reservation: null };
    case 'BloodlineUsed': {
      const { useNumber, maxUses, sessionId } = event.data;
      return { ...state, status: 'in-use', uses: useNumber, maxUses, lastSessionId: sessionId, reservation: null };
    }
    case 'BloodlineReprocessed':
      return { ...state, status: 'stored' };
    case 'BloodlineDiscarded':
      return { ...state, status: 'discarded', reservation: null };
    case 'BloodlinesPaired':
      return { ...state, partnerId: event.data.partnerId };
    case 'BloodlinePairingUndone':
      return state.partnerId === event.data.partnerId ? { ...state, partnerId: null } : state;
  }
}
