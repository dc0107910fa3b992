// What the bloodline decider remembers of a line's history (both kinds): what its rules need. evolve never throws.
import type { BloodlineEvent, LineStatus, LineType, ResidualResult } from './bloodlineEvents.js';

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
  /** The last reprocessing's germicide fill and minimum dwell, and the residual test since (null: none yet). */
  fill?: { fillTime: string | null; minDwellHours: number } | null;
  residualTest?: ResidualResult | null;
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
  fill: null,
  residualTest: null,
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
      return { ...state, status: 'in-use', uses: useNumber, maxUses, lastSessionId: sessionId, reservation: null, residualTest: null };
    }
    case 'BloodlineReprocessed': {
      const fill = { fillTime: event.data.fillTime ?? null, minDwellHours: event.data.minDwellHours ?? 0 };
      return { ...state, status: 'stored', fill, residualTest: null };
    }
    case 'BloodlineResidualTested':
      return { ...state, residualTest: event.data.result };
    case 'BloodlineDiscarded':
      return { ...state, status: 'discarded', reservation: null };
    case 'BloodlinesPaired':
      return { ...state, partnerId: event.data.partnerId };
    case 'BloodlinePairingUndone':
      return state.partnerId === event.data.partnerId ? { ...state, partnerId: null } : state;
  }
}
