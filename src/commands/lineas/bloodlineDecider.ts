// Every rule about a bloodline, arterial or venous (one decider per kind, same rules). Pure: time, ids, the policy and
// facts about the patient or the partner line come in with the command.
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks, invalidFields, isRealDate, notFutureDate, notFutureInstant } from '../shared/fieldChecks.js';
import {
  LINE_CATEGORIES,
  maxUsesOf,
  type BloodlineCommand,
  type BloodlineEvent,
  type LineFields,
  type LineType,
} from './bloodlineEvents.js';
import { evolveBloodline, initialBloodlineState, type BloodlineState } from './bloodlineState.js';

export { evolveBloodline, initialBloodlineState, type BloodlineState } from './bloodlineState.js';

function checkFields(f: LineFields, at: string): void {
  const checks = new FieldChecks();
  for (const field of ['model', 'lot', 'serial'] as const) checks.check(f[field].trim().length > 0, field, 'must not be blank');
  checks.check(f.primingVolumeMl > 0, 'primingVolumeMl', 'must be positive');
  checks.check(isRealDate(f.receivedOn) && notFutureDate(f.receivedOn, at), 'receivedOn', 'must be a real date, not in the future');
  checks.throwIfAny();
}

function existing(state: BloodlineState): BloodlineState {
  if (!state.exists) throw notFound('bloodline');
  return state;
}

/** A line that may still take part in a session: not discarded, owned by a patient. */
function active(state: BloodlineState): BloodlineState & { patientId: string } {
  const s = existing(state);
  if (s.status === 'discarded') throw rule('bloodline-discarded', 'the bloodline is discarded (terminal)');
  if (s.patientId === null) throw rule('bloodline-not-assigned', 'the bloodline is not assigned to a patient yet');
  return s as BloodlineState & { patientId: string };
}

/**
 * May the line go into a session now: no other session holds it, it was reprocessed since its last use, uses left; a
 * reprocessed line also after its germicide's minimum dwell and with a negative residual test (domain.md 3.2-3.3).
 */
function usableNow(s: BloodlineState, maxUses: number, at: string): void {
  if (s.reservation) throw rule('bloodline-in-use-by-another-session', 'the bloodline is in use by another session');
  if (s.status === 'in-use') throw rule('bloodline-awaiting-reprocessing', 'the bloodline was used and not reprocessed since');
  if (s.uses >= maxUses) throw rule('max-uses-reached', `the bloodline has reached its maximum of ${maxUses} uses`, { maxUses });
  if (s.status !== 'stored') return;
  if (!s.residualTest) throw rule('residual-test-missing', 'the residual germicide test after rinsing is not recorded');
  if (s.residualTest !== 'negative')
    throw rule('residual-test-positive', 'the residual germicide test is positive: rinse again and re-test');
  const fill = s.fill;
  if (fill?.fillTime && Date.parse(at) - Date.parse(fill.fillTime) < fill.minDwellHours * 3_600_000) {
    throw rule('dwell-time-too-short', `the germicide dwell of ${fill.minDwellHours} h has not passed`, {
      minDwellHours: fill.minDwellHours,
    });
  }
}

type Command<T extends BloodlineCommand['type']> = Extract<BloodlineCommand, { type: T }>;

/** A session claims the line at its start: every rule of a use judged now; the holder's retry decides nothing. */
function reserve(command: Command<'ReserveBloodlineForSession'>, state: BloodlineState): BloodlineEvent[] {
  const { sessionId, patientId, policy } = command.data;
  const s = active(state);
  if (s.reservation?.sessionId === sessionId || s.lastSessionId === sessionId) return [];
  if (s.patientId !== patientId) throw rule('bloodline-of-another-patient', 'the bloodline belongs to another patient');
  usableNow(s, maxUsesOf(s.reusable, policy), command.at);
  const data = { sessionId, patientId, reservedAt: command.at, statusBefore: s.status, policyRevision: policy.revision };
  return [{ type: 'BloodlineReservedForSession', data }];
}

/** Only the holding session gives its claim back (no use counted); for any other session it decides nothing. */
function release(command: Command<'ReleaseBloodlineReservation'>, state: BloodlineState): BloodlineEvent[] {
  const { sessionId, reason } = command.data;
  const held = existing(state).reservation;
  if (!held || held.sessionId !== sessionId) return [];
  if (reason.trim().length === 0) throw invalidFields([{ field: 'reason', message: 'must not be blank' }]);
  return [
    { type: 'BloodlineReservationReleased', data: { sessionId, reason: reason.trim(), releasedAt: command.at, status: held.statusBefore } },
  ];
}

export function decideBloodline(command: BloodlineCommand, state: BloodlineState): BloodlineEvent[] {
  switch (command.type) {
    case 'ReceiveBloodline': {
      if (state.exists) throw new DomainError('already-exists', 'this bloodline already exists', 409);
      checkFields(command.data, command.at);
      const d = command.data;
      const trimmed = { model: d.model.trim(), lot: d.lot.trim(), serial: d.serial.trim() };
      return [{ type: 'BloodlineReceived', data: { lineId: command.aggregateId, ...d, ...trimmed } }];
    }
    case 'AssignBloodline': {
      const s = existing(state);
      const { patientId, patient, policy } = command.data;
      if (s.status === 'discarded') throw rule('bloodline-discarded', 'the bloodline is discarded (terminal)');
      if (s.patientId === patientId) return [];
      // Patient-exclusive for life: once assigned, never to anyone else.
      if (s.patientId !== null) throw rule('bloodline-already-assigned', 'the bloodline belongs to another patient for life');
      if (!patient.exists) throw invalidFields([{ field: 'patientId', message: 'no such patient in this company' }]);
      if (!patient.active) throw rule('patient-not-active', 'the patient is not under treatment');
      const maxUses = maxUsesOf(s.reusable, policy);
      return [{ type: 'BloodlineAssignedToPatient', data: { patientId, maxUses, policyRevision: policy.revision } }];
    }
    case 'RecordBloodlineUse': {
      const { sessionId, patientId, policy } = command.data;
      if (existing(state).lastSessionId === sessionId) return []; // the same session recorded again (even once discarded)
      const s = active(state);
      if (s.patientId !== patientId) throw rule('bloodline-of-another-patient', 'the bloodline belongs to another patient');
      const maxUses = maxUsesOf(s.reusable, policy);
      // The holder's use counts: its rules were judged when the session claimed it, before the patient got onto it.
      if (s.reservation?.sessionId !== sessionId) usableNow(s, maxUses, command.at);
      const useNumber = s.uses + 1;
      const used: BloodlineEvent = {
        type: 'BloodlineUsed',
        data: { sessionId, patientId, useNumber, maxUses, policyRevision: policy.revision },
      };
      if (useNumber < maxUses) return [used];
      const reason = maxUses === 1 ? 'single-use' : 'max-uses-reached';
      return [used, { type: 'BloodlineDiscarded', data: { reason, policyRevision: policy.revision } }];
    }
    case 'ReprocessBloodline': {
      const { disinfectant, integrity, policy, patient } = command.data;
      const s = active(state);
      if (!policy.enabled) {
        throw rule('bloodline-reuse-disabled', 'the company policy does not enable bloodline reuse', {
          policy: 'bloodlineReuse.enabled',
          policyRevision: policy.revision,
        });
      }
      if (!s.reusable) throw rule('bloodline-not-reusable', 'the bloodline is single-use');
      if (s.reservation) throw rule('bloodline-in-use-by-session', 'the bloodline is in a running session');
      if (s.status !== 'in-use') throw rule('bloodline-not-used', 'only a line used since its last reprocessing is reprocessed');
      if (patient?.hbsagPositive && !policy.hbsagPositiveReuse) {
        throw rule('hbsag-positive-no-reuse', "the company's policy forbids reusing the bloodlines of an HBsAg-positive patient", {
          policyRevision: policy.revision,
        });
      }
      if (disinfectant.trim().length === 0) throw invalidFields([{ field: 'disinfectant', message: 'must not be blank' }]);
      const fillTime = command.data.fillTime ?? command.at;
      if (!notFutureInstant(fillTime, command.at)) throw invalidFields([{ field: 'fillTime', message: 'must not be in the future' }]);
      const maxUses = maxUsesOf(s.reusable, policy);
      const dwell = policy.minDwellHours ? { minDwellHours: policy.minDwellHours } : {};
      const reprocessed: BloodlineEvent = {
        type: 'BloodlineReprocessed',
        data: { disinfectant: disinfectant.trim(), integrity, afterUse: s.uses, policyRevision: policy.revision, fillTime, ...dwell },
      };
      if (integrity !== 'passed')
        return [reprocessed, { type: 'BloodlineDiscarded', data: { reason: integrity, policyRevision: policy.revision } }];
      if (s.uses >= maxUses) return [{ type: 'BloodlineDiscarded', data: { reason: 'max-uses-reached', policyRevision: policy.revision } }];
      return [reprocessed];
    }
    case 'RecordBloodlineResidualTest': {
      const s = active(state);
      if (s.status !== 'stored' || s.reservation) {
        throw rule('bloodline-not-reprocessed', 'the residual test is recorded on a reprocessed line before its next use');
      }
      return [{ type: 'BloodlineResidualTested', data: { result: command.data.result, testedAt: command.at } }];
    }
    case 'DiscardBloodline': {
      const s = existing(state);
      if (s.status === 'discarded') throw rule('bloodline-discarded', 'the bloodline is already discarded (terminal)');
      const note = command.data.note?.trim();
      return [{ type: 'BloodlineDiscarded', data: { reason: command.data.reason, ...(note ? { note } : {}) } }];
    }
    case 'PairBloodline': {
      const { partnerId, partner } = command.data;
      const s = active(state);
      if (s.partnerId === partnerId) return []; // a retried pairing
      if (s.partnerId !== null)
        throw rule('bloodline-already-paired', 'the bloodline is paired with another line', { partnerId: s.partnerId });
      if (s.uses >= s.maxUses) throw rule('max-uses-reached', 'the bloodline has reached its maximum uses');
      if (partner.patientId !== s.patientId) throw rule('bloodlines-of-different-patients', 'both lines must belong to the same patient');
      if (!partner.usable) throw rule('partner-not-usable', 'the other line is discarded or at its maximum uses');
      return [{ type: 'BloodlinesPaired', data: { partnerId } }];
    }
    case 'ReserveBloodlineForSession':
      return reserve(command, state);
    case 'ReleaseBloodlineReservation':
      return release(command, state);
    case 'UndoBloodlinePairing': {
      const s = existing(state);
      return s.partnerId === command.data.partnerId
        ? [{ type: 'BloodlinePairingUndone', data: { partnerId: command.data.partnerId } }]
        : [];
    }
  }
}

/** Usable for a session or a pairing: assigned, not discarded, under its maximum. */
export const usable = (s: BloodlineState): boolean => s.exists && s.status !== 'discarded' && s.patientId !== null && s.uses < s.maxUses;

const deciders = new Map<LineType, Decider<BloodlineCommand, BloodlineEvent, BloodlineState>>();

/** The decider of one kind: same rules, its own stream category. */
export function bloodlineDecider(lineType: LineType): Decider<BloodlineCommand, BloodlineEvent, BloodlineState> {
  let decider = deciders.get(lineType);
  if (!decider) {
    decider = {
      category: LINE_CATEGORIES[lineType],
      initialState: initialBloodlineState,
      evolve: evolveBloodline,
      decide: decideBloodline,
    };
    deciders.set(lineType, decider);
  }
  return decider;
}
