// Every rule about a dialyzer. Pure: time, ids, the company policy and the facts of other records come in with the
// command. A failed blood-leak test discards the dialyzer (blood reached the dialysate side: the fibres are broken);
// a failed pressure-leak test only quarantines it, since a re-test after a new reprocessing may pass.
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks, isRealDate, notFutureInstant } from '../shared/fieldChecks.js';
import type { DialyzerCommand, DialyzerEvent, DialyzerFields, PatientFacts } from './dialyzerEvents.js';
import { DIALYZER_CATEGORY } from './dialyzerEvents.js';
import { initialDialyzerState, evolveDialyzer, type DialyzerState } from './dialyzerState.js';
import { readinessReasons } from './shared/readiness.js';
import { maxUsesFor, tcvPercentOf } from './shared/reusePolicy.js';
import { release, reserve } from './reservationRules.js';

type Command<T extends DialyzerCommand['type']> = Extract<DialyzerCommand, { type: T }>;

function existing(state: DialyzerState): DialyzerState & { fields: DialyzerFields } {
  if (!state.exists || !state.fields) throw notFound('dialyzer');
  if (state.status === 'discarded') throw rule('dialyzer-discarded', 'the dialyzer was discarded: that is final');
  return state as DialyzerState & { fields: DialyzerFields };
}

/** A patient of another company is simply absent: 422 naming patientId, like a missing one. */
function patientMustExist(patient: PatientFacts): void {
  new FieldChecks().check(patient.exists, 'patientId', 'no such patient in this company').throwIfAny();
}

function receive(command: Command<'ReceiveDialyzer'>, state: DialyzerState): DialyzerEvent[] {
  if (state.exists) throw new DomainError('already-exists', 'this dialyzer already exists', 409);
  const d = command.data;
  const checks = new FieldChecks();
  for (const field of ['model', 'membrane', 'lot', 'serial'] as const) checks.check(d[field].trim().length > 0, field, 'must not be blank');
  checks.throwIfAny();
  const trimmed = { ...d, model: d.model.trim(), membrane: d.membrane.trim(), lot: d.lot.trim(), serial: d.serial.trim() };
  return [{ type: 'DialyzerReceived', data: { dialyzerId: command.aggregateId, ...trimmed } }];
}

function assign(command: Command<'AssignDialyzer'>, state: DialyzerState): DialyzerEvent[] {
  const s = existing(state);
  const { patientId, baselineTcvMl, patient } = command.data;
  // Patient-exclusive for life: once assigned, never another patient.
  if (s.patientId !== null && s.patientId !== patientId) throw rule('patient-mismatch', 'the dialyzer belongs to another patient');
  if (s.patientId !== null) throw rule('already-assigned', 'the dialyzer is already assigned to this patient');
  patientMustExist(patient);
  if (!patient.active) throw rule('patient-not-active', 'the patient is not active');
  return [{ type: 'DialyzerAssignedToPatient', data: { patientId, baselineTcvMl } }];
}

function checkReprocessingFields(d: Command<'ReprocessDialyzer'>['data'], at: string, lastUsedAt: string | null): void {
  const checks = new FieldChecks();
  checks.check(d.operatorId.trim().length > 0, 'operatorId', 'must not be blank');
  checks.check(notFutureInstant(d.fillTime, at), 'fillTime', 'must not be in the future');
  // A fill before the last use would count dwell time the dialyzer spent on the patient.
  checks.check(lastUsedAt === null || Date.parse(d.fillTime) >= Date.parse(lastUsedAt), 'fillTime', 'must not be before the last use');
  checks.check(isRealDate(d.expiresOn), 'expiresOn', 'is not a real date');
  checks.check(d.expiresOn >= d.fillTime.slice(0, 10), 'expiresOn', 'must not be before the fill time');
  checks.check(d.storageLocation.trim().length > 0, 'storageLocation', 'must not be blank');
  checks.throwIfAny();
}

function reprocess(command: Command<'ReprocessDialyzer'>, state: DialyzerState): DialyzerEvent[] {
  const s = existing(state);
  const { patient, policy, ...data } = command.data;
  if (!s.reusable) throw rule('dialyzer-single-use', 'a single-use dialyzer is never reprocessed');
  if (s.status !== 'used' && s.status !== 'quarantined')
    throw rule('not-awaiting-reprocessing', 'only a used or quarantined dialyzer is reprocessed');
  if (patient.hbsagPositive && !policy.hbsagPositiveReuse) {
    throw rule('hbsag-positive-no-reuse', "the company's policy forbids reusing the dialyzer of an HBsAg-positive patient", {
      policyRevision: policy.revision,
    });
  }
  const maxUses = maxUsesFor(s.model, s.reusable, policy);
  if (s.uses >= maxUses)
    throw rule('max-uses-reached', `the dialyzer reached its ${maxUses} uses`, { maxUses, policyRevision: policy.revision });
  checkReprocessingFields(command.data, command.at, s.lastUsedAt);
  const baseline = s.baselineTcvMl ?? data.tcvMl;
  const tcvPercent = tcvPercentOf(data.tcvMl, baseline);
  const policyRevision = policy.revision;
  const events: DialyzerEvent[] = [{ type: 'DialyzerReprocessed', data: { ...data, cycle: s.cycle + 1, tcvPercent, policyRevision } }];
  // The threshold is judged on the measured volume, never on the rounded % shown (79.95 % is below 80 %).
  if (data.tcvMl * 100 < policy.tcvThresholdPercent * baseline)
    events.push({ type: 'DialyzerDiscarded', data: { reason: 'tcv-below-threshold', policyRevision } });
  else if (data.bloodLeak === 'fail') events.push({ type: 'DialyzerDiscarded', data: { reason: 'blood-leak', policyRevision } });
  else if (data.pressureLeak === 'fail')
    events.push({ type: 'DialyzerQuarantined', data: { reason: 'pressure-leak-failed', policyRevision } });
  return events;
}

function preUseChecks(command: Command<'RecordPreUseChecks'>, state: DialyzerState): DialyzerEvent[] {
  const s = existing(state);
  const { confirmers, ...data } = command.data;
  if (s.patientId !== data.patientId) throw rule('patient-mismatch', 'the dialyzer belongs to another patient');
  // Before the first use (assigned, never used) the identity check alone; before a reuse, the reprocessing tests too.
  const firstUse = s.status === 'assigned' && s.uses === 0;
  if (s.status !== 'stored' && !firstUse)
    throw rule('not-stored', 'pre-use checks apply to a new dialyzer before its first use or a reprocessed, stored one');
  const checks = new FieldChecks();
  if (!firstUse) {
    checks.check(data.germicidePotency !== undefined, 'germicidePotency', 'is required before a reuse');
    checks.check(data.residualTest !== undefined, 'residualTest', 'is required before a reuse (residual germicide test)');
  }
  const people = data.identityConfirmedBy;
  checks.check(people.length === 2 && people[0] !== people[1], 'identityConfirmations', 'must name two different people');
  people.forEach((userId, i) =>
    checks.check(
      confirmers[userId] === true,
      `identityConfirmations/${i}/userId`,
      'is not an active member of this company with a staff record that may sign clinical records now',
    ),
  );
  checks.throwIfAny();
  return [{ type: 'PreUseChecksRecorded', data: { ...data, checkedAt: command.at } }];
}

function use(command: Command<'RecordDialyzerUse'>, state: DialyzerState): DialyzerEvent[] {
  if (!state.exists) throw notFound('dialyzer');
  const { sessionId, patientId, patient, policy } = command.data;
  if (state.lastSessionId === sessionId) return []; // this session's use is already counted
  const held = state.reservation?.sessionId === sessionId;
  if (held && state.reservation?.patientId !== patientId) throw rule('patient-mismatch', 'the session reserved it for another patient');
  patientMustExist(patient);
  // The holder's use counts: its rules were judged when the session claimed it, before the patient got onto it.
  const reasons = held ? [] : readinessReasons(state, patientId, command.at, policy, patient.hbsagPositive);
  if (reasons.length > 0) {
    throw rule(reasons[0]!, `the dialyzer may not be used now: ${reasons.join(', ')}`, { reasons, policyRevision: policy.revision });
  }
  const maxUses = maxUsesFor(state.model, state.reusable, policy);
  const useNumber = state.uses + 1;
  const used: DialyzerEvent = {
    type: 'DialyzerUsed',
    data: { sessionId, patientId, useNumber, maxUses, policyRevision: policy.revision, usedAt: command.at },
  };
  if (!state.reusable) return [used, { type: 'DialyzerDiscarded', data: { reason: 'single-use', policyRevision: policy.revision } }];
  // The use that reaches the maximum takes it out of service: it is never reprocessed again (domain.md 3.6).
  if (useNumber >= maxUses)
    return [used, { type: 'DialyzerDiscarded', data: { reason: 'max-uses-reached', policyRevision: policy.revision } }];
  return [used];
}

export function decideDialyzer(command: DialyzerCommand, state: DialyzerState): DialyzerEvent[] {
  switch (command.type) {
    case 'ReceiveDialyzer':
      return receive(command, state);
    case 'AssignDialyzer':
      return assign(command, state);
    case 'ReprocessDialyzer':
      return reprocess(command, state);
    case 'RecordPreUseChecks':
      return preUseChecks(command, state);
    case 'ReserveDialyzerForSession':
      return reserve(command, state);
    case 'ReleaseDialyzerReservation':
      return release(command, state);
    case 'RecordDialyzerUse':
      return use(command, state);
    case 'DiscardDialyzer': {
      existing(state);
      const note = command.data.note?.trim();
      return [{ type: 'DialyzerDiscarded', data: { reason: command.data.reason, ...(note ? { note } : {}) } }];
    }
  }
}

export const dialyzerDecider: Decider<DialyzerCommand, DialyzerEvent, DialyzerState> = {
  category: DIALYZER_CATEGORY,
  initialState: initialDialyzerState,
  evolve: evolveDialyzer,
  decide: decideDialyzer,
};
