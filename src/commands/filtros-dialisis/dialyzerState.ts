// What the dialyzer decider remembers of its history: what its rules need. evolve never throws.
import type { DialyzerEvent, DialyzerFields, DialyzerStatus } from './dialyzerEvents.js';
import type { ReadinessFacts } from './shared/readiness.js';

export interface DialyzerState extends ReadinessFacts {
  exists: boolean;
  fields: DialyzerFields | null;
  baselineTcvMl: number | null;
  /** When the last use was recorded (absent on uses recorded before it was kept): a refill cannot predate it. */
  lastUsedAt: string | null;
  /** The running session that claimed it at its start, and the status a release gives back. */
  reservation: { sessionId: string; patientId: string; reservedAt: string; statusBefore: DialyzerStatus } | null;
  /** The session whose use was counted last: counting it again decides nothing. */
  lastSessionId: string | null;
}

export const initialDialyzerState: DialyzerState = {
  exists: false,
  fields: null,
  baselineTcvMl: null,
  lastUsedAt: null,
  reservation: null,
  lastSessionId: null,
  status: 'in-stock',
  model: '',
  reusable: false,
  patientId: null,
  uses: 0,
  cycle: 0,
  lastFillTime: null,
  lastGermicide: null,
  expiresOn: null,
  checks: null,
};

export function evolveDialyzer(state: DialyzerState, event: DialyzerEvent): DialyzerState {
  switch (event.type) {
    case 'DialyzerReceived': {
      const { dialyzerId: _id, ...fields } = event.data;
      return { ...state, exists: true, fields, model: fields.model, reusable: fields.reusable, status: 'in-stock' };
    }
    case 'DialyzerAssignedToPatient':
      return { ...state, patientId: event.data.patientId, baselineTcvMl: event.data.baselineTcvMl, status: 'assigned' };
    case 'DialyzerReprocessed':
      return {
        ...state,
        cycle: event.data.cycle,
        lastFillTime: event.data.fillTime,
        lastGermicide: event.data.germicide.name,
        expiresOn: event.data.expiresOn,
        checks: null,
        status: 'stored',
      };
    case 'DialyzerQuarantined':
      return { ...state, status: 'quarantined' };
    case 'PreUseChecksRecorded': {
      const { checkedAt: _at, ...checks } = event.data;
      return { ...state, checks };
    }
    case 'DialyzerReservedForSession': {
      const { sessionId, patientId, reservedAt, statusBefore } = event.data;
      return { ...state, status: 'in-use', reservation: { sessionId, patientId, reservedAt, statusBefore } };
    }
    case 'DialyzerReservationReleased':
      return { ...state, status: event.data.status, reservation: null };
    case 'DialyzerUsed':
      return {
        ...state,
        uses: event.data.useNumber,
        checks: null,
        status: 'used',
        lastUsedAt: event.data.usedAt ?? state.lastUsedAt,
        reservation: null,
        lastSessionId: event.data.sessionId,
      };
    case 'DialyzerDiscarded':
      return { ...state, status: 'discarded', reservation: null };
  }
}
