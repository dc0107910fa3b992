// The session decider: the lifecycle of domain.md 2.1 (scheduled -> checked in -> started <-> paused -> ended ->
// signed -> validated; cancelled, no-show, interrupted) and the blocks recorded along it. Pure.
import { notFound, rule, type Decider } from '../../decider.js';
import { FieldChecks, invalidFields, isRealDate, notFutureInstant } from '../../shared/fieldChecks.js';
import { PAST_DATE_START, pastDateWithoutStart } from './backEntry.js';
import type { AmendableBlock, PostDialysis, SessionEvent, SessionStatus } from './sessionEvents.js';
import { SESSION_CATEGORY } from './sessionEvents.js';
import type { SessionCommand } from './sessionCommands.js';
import { withinLimit } from '../shared/sessionLimits.js';
import { checkInsideSession, checkSampleTime, checkWeighedBlock, missingForSigning, sessionStartReasons } from './sessionRules.js';
import { PRE_UREA, POST_UREA, ureaChanges, withUrea } from '../shared/ureaLab.js';
import { evolveSession, initialSessionState, minutesBetween, treatmentMinutes, type SessionState } from './sessionState.js';
import { checkEnd, checkStart } from './treatmentTimes.js';
import { changeMachine } from './machineChange.js';

type Command<T extends SessionCommand['type']> = Extract<SessionCommand, { type: T }>;

/** Records that may still change without an amendment: before the nurse signs. */
const OPEN: readonly SessionStatus[] = ['checked-in', 'in-progress', 'paused', 'ended', 'interrupted'];
const RUNNING: readonly SessionStatus[] = ['in-progress', 'paused'];
const TREATED: readonly SessionStatus[] = ['in-progress', 'paused', 'ended', 'interrupted'];
const SIGNED: readonly SessionStatus[] = ['signed', 'validated'];
const SCHEDULABLE_PATIENT = 'active';
const HOUR_MS = 3600_000;

function mustBe(state: SessionState, allowed: readonly SessionStatus[], doing: string): void {
  if (!state.exists) throw notFound('session');
  if (!allowed.includes(state.status)) {
    const code = SIGNED.includes(state.status) ? 'session-signed' : 'session-status';
    throw rule(code, `${doing} is not possible on a session that is ${state.status}`, { status: state.status });
  }
}

const blank = (text: string | undefined): boolean => !text || text.trim().length === 0;

function schedule(command: Command<'ScheduleSession'>, state: SessionState): SessionEvent[] {
  const { patient, today, ...data } = command.data;
  if (state.exists) {
    // Generating the day twice is harmless; asking twice for the same patient, date and shift is not.
    if (data.kind === 'planned' && state.scheduled?.kind === 'planned') return [];
    throw rule('session-already-scheduled', 'the patient already has a session on this date and shift', {
      sessionId: state.scheduled?.sessionId,
    });
  }
  const checks = new FieldChecks();
  checks.check(patient.exists, 'patientId', 'no such patient in this company');
  checks.check(isRealDate(data.date), 'date', 'is not a real date');
  // A past session is charted after the fact (a downtime): only with the reason it is late (issue 21 item 1).
  const late = data.date < today;
  checks.check(!late || !blank(data.lateEntryReason), 'lateEntryReason', 'a session of a past date needs the reason it is charted late');
  if (data.kind !== 'planned') {
    checks.check(!blank(data.reason), 'reason', `an ${data.kind} session needs a reason`);
    checks.check(!blank(data.requestedBy), 'requestedBy', `an ${data.kind} session needs the requesting physician`);
  }
  checks.throwIfAny();
  if (patient.status !== SCHEDULABLE_PATIENT) {
    throw rule('patient-not-schedulable', `a patient who is ${patient.status} is never scheduled`, { status: patient.status });
  }
  const { lateEntryReason, ...rest } = data;
  const reason = data.reason?.trim();
  const lateness = late ? { lateEntryReason: lateEntryReason!.trim() } : {};
  return [{ type: 'SessionScheduled', data: { ...rest, ...(reason ? { reason } : {}), ...lateness } }];
}

function start(command: Command<'StartSession'>, state: SessionState): SessionEvent[] {
  if (!state.exists) throw notFound('session');
  const { prescription, dryWeight, patient, warnings, startedAt: stated, vascularAccess, backEntry, ...equipment } = command.data;
  const reasons = sessionStartReasons(state, { prescription, patient, dryWeight });
  if (reasons.length > 0) throw rule(reasons[0]!, `the session may not start: ${reasons.join(', ')}`, { reasons });
  const startedAt = stated ?? command.at;
  const checks = new FieldChecks();
  checkStart(checks, 'startedAt', startedAt, command.at, null);
  checks.check(!pastDateWithoutStart(state, stated), 'startedAt', PAST_DATE_START);
  checks.throwIfAny();
  const access = { ...(vascularAccess === undefined ? {} : { vascularAccess }), ...(backEntry ? { backEntry } : {}) };
  // One dry weight: the snapshot carries the patient's in force, whatever the prescription once said.
  const snapshot = { ...prescription!, dryWeightKg: dryWeight!.dryWeightKg };
  return [
    { type: 'SessionStarted', data: { ...equipment, startedAt, prescription: snapshot, dryWeight: dryWeight!, warnings, ...access } },
  ];
}

function recordReading(command: Command<'RecordReading'>, state: SessionState): SessionEvent[] {
  mustBe(state, TREATED, 'recording a reading');
  const { limits, ...data } = command.data;
  if (state.readingIds.includes(data.readingId)) return [];
  withinLimit(state.readingIds.length, limits, 'readings');
  const checks = new FieldChecks();
  checkInsideSession(checks, 'at', data.at, state, command.at);
  const bp = data.bloodPressure;
  if (bp) checks.check(bp.diastolic < bp.systolic, 'bloodPressure/diastolic', 'must be below the systolic pressure');
  checks.throwIfAny();
  return [{ type: 'ReadingRecorded', data }];
}

function recordComplication(command: Command<'RecordComplication'>, state: SessionState): SessionEvent[] {
  mustBe(state, TREATED, 'recording a complication');
  const { limits, ...data } = command.data;
  if (state.complicationIds.includes(data.complicationId)) return [];
  withinLimit(state.complicationIds.length, limits, 'complications');
  const checks = new FieldChecks();
  checkInsideSession(checks, 'at', data.at, state, command.at);
  checks.throwIfAny();
  return [{ type: 'ComplicationRecorded', data }];
}

function administer(command: Command<'AdministerMedication'>, state: SessionState): SessionEvent[] {
  mustBe(state, OPEN, 'recording a medication');
  const { limits, ...d } = command.data;
  if (state.medicationIds.includes(d.medicationId)) return [];
  withinLimit(state.medicationIds.length, limits, 'medications');
  const checks = new FieldChecks();
  checks.check(notFutureInstant(d.at, command.at), 'at', 'must not be in the future');
  checks.check(d.given || !blank(d.reasonNotGiven), 'reasonNotGiven', 'a medication not given needs the reason');
  checks.check(d.expiresOn === undefined || !d.given || d.expiresOn >= d.at.slice(0, 10), 'expiresOn', 'the lot had expired');
  checks.throwIfAny();
  return [{ type: 'MedicationAdministered', data: d }];
}

function recordBlock(command: Command<'RecordPreDialysis' | 'RecordPostDialysis'>, state: SessionState): SessionEvent[] {
  const pre = command.type === 'RecordPreDialysis';
  mustBe(state, pre ? OPEN : ['ended', 'interrupted'], pre ? 'recording the pre-dialysis block' : 'recording the post-dialysis block');
  const checks = new FieldChecks();
  checkWeighedBlock(checks, command.data);
  const urea = withUrea(command.data, pre ? PRE_UREA : POST_UREA);
  if (urea.error) checks.check(false, urea.error.field, urea.error.message);
  const sample = pre ? undefined : command.data.postSample;
  if (sample) checkSampleTime(checks, sample.drawnAt, state, command.at);
  checks.throwIfAny();
  return pre ? [{ type: 'PreDialysisRecorded', data: urea.block }] : [{ type: 'PostDialysisRecorded', data: urea.block as PostDialysis }];
}

/** The end (or interruption) instant: stated, or the command's time; inside the rules of treatmentTimes.ts. */
function endInstant(state: SessionState, stated: string | undefined, at: string, field: string): string {
  // A session charted after the fact ended in the past: its end is stated, never the clock's now (backEntry.ts).
  if (state.backEntry && stated === undefined) {
    throw invalidFields([{ field, message: 'a session charted after the fact needs the instant it ended' }]);
  }
  const endedAt = stated ?? at;
  const checks = new FieldChecks();
  checkEnd(checks, field, { startedAt: state.startedAt!, endedAt }, at, state.entrySpan, stated !== undefined);
  checks.throwIfAny();
  return endedAt;
}

function sign(command: Command<'SignSession' | 'ValidateSession'>, state: SessionState): SessionEvent[] {
  const { signer } = command.data;
  if (command.type === 'ValidateSession') {
    mustBe(state, ['signed'], 'validating');
    if (state.signedBy?.userId === signer.userId)
      throw rule('validator-is-signer', "the physician's validation must come from another person than the nurse who signed");
    return [{ type: 'SessionValidatedByPhysician', data: { ...signer, validatedAt: command.at } }];
  }
  mustBe(state, ['ended', 'interrupted'], 'signing');
  const missing = missingForSigning(state);
  if (missing.length > 0) throw rule('required-fields-missing', `complete before signing: ${missing.join(', ')}`, { missing });
  const judged = command.type === 'SignSession' && command.data.judged ? { judged: command.data.judged } : {};
  return [{ type: 'SessionSignedByNurse', data: { ...signer, signedAt: command.at, ...judged } }];
}

function blockOf(state: SessionState, block: AmendableBlock): Record<string, unknown> | null {
  if (block === 'pre') return state.pre;
  if (block === 'post') return state.post;
  if (block === 'times') return { startedAt: state.startedAt, endedAt: state.endedAt };
  return state.safetyChecks;
}

function amend(command: Command<'AmendSession'>, state: SessionState): SessionEvent[] {
  mustBe(state, SIGNED, 'amending');
  const { block, reason, policy, limits, by, judged } = command.data;
  const changes =
    block === 'safetyChecks'
      ? command.data.changes
      : ureaChanges(command.data.changes, blockOf(state, block), block === 'pre' ? PRE_UREA : POST_UREA);
  withinLimit(state.amendmentCount, limits, 'amendments');
  const windowEnds = Date.parse(state.signedAt!) + policy.signedEditWindowHours * HOUR_MS;
  if (Date.parse(command.at) > windowEnds) {
    throw rule('editing-window-closed', `the ${policy.signedEditWindowHours} h editing window after signing has closed: add an addendum`, {
      policyRevision: policy.revision,
    });
  }
  const current = blockOf(state, block);
  const checks = new FieldChecks();
  checks.check(current !== null, 'block', 'was never recorded: nothing to amend');
  checks.check(!blank(reason), 'reason', 'an amendment needs a reason');
  const changed = Object.keys(changes).filter((k) => JSON.stringify(changes[k]) !== JSON.stringify(current?.[k]));
  checks.check(changed.length > 0, 'changes', 'changes nothing');
  checks.throwIfAny();
  const amended = { ...current, ...changes };
  let times = {};
  if (block === 'times') {
    const stated = amended as { startedAt: string; endedAt: string };
    checkStart(checks, 'changes/startedAt', stated.startedAt, command.at, state.entrySpan);
    checkEnd(checks, 'changes/endedAt', stated, command.at, state.entrySpan);
    checks.throwIfAny();
    // Treatment time from the corrected instants, the pauses left out (as at the end).
    const effectiveMinutes = Math.round(Math.max(0, minutesBetween(stated.startedAt, stated.endedAt) - state.pausedMinutes));
    // An interruption's lost treatment time follows the corrected instants (as the interruption computed it).
    const prescribed = state.interrupted ? state.prescription?.durationMinutes : undefined;
    times = { effectiveMinutes, ...(prescribed ? { lostMinutes: Math.max(0, prescribed - effectiveMinutes) } : {}) };
  } else if (block !== 'safetyChecks') {
    checkWeighedBlock(checks, amended as never, 'changes/');
    const urea = withUrea(amended, block === 'pre' ? PRE_UREA : POST_UREA);
    if (urea.error) checks.check(false, `changes/${urea.error.field}`, urea.error.message);
    const sample = block === 'post' ? (amended as PostDialysis).postSample : undefined;
    if (sample && changes.postSample !== undefined) checkSampleTime(checks, sample.drawnAt, state, command.at, 'changes/');
    checks.throwIfAny();
  }
  const previous = Object.fromEntries(changed.map((k) => [k, current?.[k] ?? null]));
  const data = {
    block,
    changes: Object.fromEntries(changed.map((k) => [k, changes[k]])),
    previous,
    reason: reason.trim(),
    policyRevision: policy.revision,
    amendedBy: by,
    // A validated record that changes needs a physician's validation again (the earlier one stays in the history).
    ...(state.status === 'validated' ? { returnsToValidation: true as const } : {}),
    ...times,
    ...(judged ? { judged } : {}),
  };
  return [{ type: 'SessionAmended', data }];
}

/** An interruption names the complication behind it (recorded on this session) and the prescribed minutes it cost. */
function interrupt(command: Command<'InterruptSession'>, state: SessionState): SessionEvent[] {
  mustBe(state, RUNNING, 'interrupting');
  const { reasonCode, note, complicationId } = command.data;
  if (complicationId !== undefined && !state.complicationIds.includes(complicationId)) {
    throw invalidFields([{ field: 'complicationId', message: 'no such complication in this session' }]);
  }
  const interruptedAt = endInstant(state, command.data.interruptedAt, command.at, 'interruptedAt');
  const effectiveMinutes = treatmentMinutes(state, interruptedAt);
  const prescribed = state.prescription?.durationMinutes;
  const data = {
    interruptedAt,
    reasonCode,
    ...(note?.trim() ? { note: note.trim() } : {}),
    effectiveMinutes,
    ...(complicationId ? { complicationId } : {}),
    ...(prescribed ? { lostMinutes: Math.max(0, prescribed - effectiveMinutes) } : {}),
  };
  return [{ type: 'SessionInterrupted', data }];
}

function decideSession(command: SessionCommand, state: SessionState): SessionEvent[] {
  switch (command.type) {
    case 'ScheduleSession':
      return schedule(command, state);
    case 'CheckInPatient':
      mustBe(state, ['scheduled'], 'checking in');
      return [{ type: 'PatientCheckedIn', data: { checkedInAt: command.at } }];
    case 'RecordPreDialysis':
    case 'RecordPostDialysis':
      return recordBlock(command, state);
    case 'RecordSafetyChecks':
      mustBe(state, ['checked-in'], 'recording the safety checks');
      return [{ type: 'SafetyChecksRecorded', data: command.data }];
    case 'StartSession':
      return start(command, state);
    case 'PauseSession':
      mustBe(state, ['in-progress'], 'pausing');
      withinLimit(state.pauseCount, command.data.limits, 'pauses');
      if (blank(command.data.reason)) throw invalidFields([{ field: 'reason', message: 'a pause needs a reason' }]);
      return [{ type: 'SessionPaused', data: { pausedAt: command.at, reason: command.data.reason.trim() } }];
    case 'ResumeSession':
      mustBe(state, ['paused'], 'resuming');
      return [{ type: 'SessionResumed', data: { resumedAt: command.at } }];
    case 'RecordReading':
      return recordReading(command, state);
    case 'RecordComplication':
      return recordComplication(command, state);
    case 'AdministerMedication':
      return administer(command, state);
    case 'EndSession': {
      mustBe(state, RUNNING, 'ending');
      const endedAt = endInstant(state, command.data.endedAt, command.at, 'endedAt');
      return [{ type: 'SessionEnded', data: { endedAt, effectiveMinutes: treatmentMinutes(state, endedAt) } }];
    }
    case 'InterruptSession':
      return interrupt(command, state);
    case 'CancelSession':
      mustBe(state, ['scheduled', 'checked-in'], 'cancelling');
      if (blank(command.data.reason)) throw invalidFields([{ field: 'reason', message: 'a cancellation needs a reason' }]);
      return [{ type: 'SessionCancelled', data: { reason: command.data.reason.trim() } }];
    case 'MarkNoShow':
      mustBe(state, ['scheduled'], 'marking a no-show');
      // A patient can only have missed a session whose day has come (the missed-sessions alert counts these).
      if (state.scheduled && command.data.today < state.scheduled.date) {
        throw rule('session-day-not-reached', `the session is on ${state.scheduled.date}: it cannot be missed yet`);
      }
      return [{ type: 'SessionMarkedNoShow', data: command.data.note?.trim() ? { note: command.data.note.trim() } : {} }];
    case 'SignSession':
    case 'ValidateSession':
      return sign(command, state);
    case 'AmendSession':
      return amend(command, state);
    case 'ChangeMachine':
      mustBe(state, RUNNING, 'changing the machine');
      return changeMachine(command.data, state, command.at);
    case 'AddAddendum': {
      mustBe(state, SIGNED, 'adding an addendum');
      const { text, reason, limits, by } = command.data;
      withinLimit(state.addendumCount, limits, 'addenda');
      const checks = new FieldChecks();
      checks.check(!blank(text), 'text', 'must not be blank');
      checks.check(!blank(reason), 'reason', 'an addendum needs a reason');
      checks.throwIfAny();
      return [{ type: 'SessionAddendumRecorded', data: { text: text.trim(), reason: reason.trim(), addedBy: by } }];
    }
  }
}

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  category: SESSION_CATEGORY,
  initialState: initialSessionState,
  evolve: evolveSession,
  decide: decideSession,
};
