// Every rule about a bloodline, arterial or venous (one decider per kind, same rules). Pure: time, ids, the policy and
// facts about the patient or the partner line come in with the command.
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks, invalidFields, isRealDate, notFutureDate } from '../fieldChecks.js';
import {
  LINE_CATEGORIES,
  maxUsesOf,
  type BloodlineCommand,
  type BloodlineEvent,
  type LineFields,
  type LineStatus,
  type LineType,
} from './bloodlineEvents.js';

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
};

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
      const s = active(state);
      if (s.lastSessionId === sessionId) return []; // the same session recorded again
      if (s.patientId !== patientId) throw rule('bloodline-of-another-patient', 'the bloodline belongs to another patient');
      if (s.status === 'in-use') throw rule('bloodline-awaiting-reprocessing', 'the bloodline was used and not reprocessed since');
      const maxUses = maxUsesOf(s.reusable, policy);
      if (s.uses >= maxUses) throw rule('max-uses-reached', `the bloodline has reached its maximum of ${maxUses} uses`, { maxUses });
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
      const { disinfectant, integrity, policy } = command.data;
      const s = active(state);
      if (!policy.enabled) {
        throw rule('bloodline-reuse-disabled', 'the company policy does not enable bloodline reuse', {
          policy: 'bloodlineReuse.enabled',
          policyRevision: policy.revision,
        });
      }
      if (!s.reusable) throw rule('bloodline-not-reusable', 'the bloodline is single-use');
      if (s.status !== 'in-use') throw rule('bloodline-not-used', 'only a line used since its last reprocessing is reprocessed');
      if (disinfectant.trim().length === 0) throw invalidFields([{ field: 'disinfectant', message: 'must not be blank' }]);
      const maxUses = maxUsesOf(s.reusable, policy);
      const reprocessed: BloodlineEvent = {
        type: 'BloodlineReprocessed',
        data: { disinfectant: disinfectant.trim(), integrity, afterUse: s.uses, policyRevision: policy.revision },
      };
      if (integrity !== 'passed')
        return [reprocessed, { type: 'BloodlineDiscarded', data: { reason: integrity, policyRevision: policy.revision } }];
      if (s.uses >= maxUses) return [{ type: 'BloodlineDiscarded', data: { reason: 'max-uses-reached', policyRevision: policy.revision } }];
      return [reprocessed];
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
    case 'UndoBloodlinePairing': {
      const s = existing(state);
      return s.partnerId === command.data.partnerId
        ? [{ type: 'BloodlinePairingUndone', data: { partnerId: command.data.partnerId } }]
        : [];
    }
  }
}

export function evolveBloodline(state: BloodlineState, event: BloodlineEvent): BloodlineState {
  switch (event.type) {
    case 'BloodlineReceived':
      return { ...initialBloodlineState, exists: true, lineType: event.data.lineType, reusable: event.data.reusable };
    case 'BloodlineAssignedToPatient':
      return { ...state, status: 'assigned', patientId: event.data.patientId, maxUses: event.data.maxUses };
    case 'BloodlineUsed':
      return { ...state, status: 'in-use', uses: event.data.useNumber, maxUses: event.data.maxUses, lastSessionId: event.data.sessionId };
    case 'BloodlineReprocessed':
      return { ...state, status: 'stored' };
    case 'BloodlineDiscarded':
      return { ...state, status: 'discarded' };
    case 'BloodlinesPaired':
      return { ...state, partnerId: event.data.partnerId };
    case 'BloodlinePairingUndone':
      return state.partnerId === event.data.partnerId ? { ...state, partnerId: null } : state;
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
