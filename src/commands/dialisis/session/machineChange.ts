// A machine changed mid-session (issue 21 item 8, domain.md 2.13): the new machine passes its own per-treatment safety
// checks (the writes have it pass the start's interlocks and claim it first); the old one is given back with the
// treatment minutes it ran (the consequences process manager ends its use). Pure.
import { rule } from '../../decider.js';
import { invalidFields } from '../../shared/fieldChecks.js';
import type { ChangeMachineData, MachineChangedData, SessionEvent } from './sessionEvents.js';
import { failedSafetyChecks } from './sessionRules.js';
import { treatmentMinutes, type SessionState } from './sessionState.js';

export type { ChangeMachineData, MachineChangedData };

export function changeMachine(data: ChangeMachineData, state: SessionState, at: string): SessionEvent[] {
  // A back-entered session never took its machine live; a change would take the new one now (not charted yet).
  if (state.backEntry) throw rule('back-entry-machine-change', 'a session charted after the fact cannot change machine yet');
  const current = state.equipment!.machineId;
  const problems = [];
  if (data.machineId === current) problems.push({ field: 'machineId', message: 'is the machine the session runs on' });
  if (data.reason.trim().length === 0) problems.push({ field: 'reason', message: 'a machine change needs a reason' });
  if (problems.length > 0) throw invalidFields(problems);
  const failed = failedSafetyChecks(data.safetyChecks);
  if (failed.length > 0) throw rule('safety-checks-failed', `the new machine failed its safety checks: ${failed.join(', ')}`, { failed });
  const minutesOnPrevious = Math.max(0, treatmentMinutes(state, at) - state.machineMinutesBefore);
  const changed: MachineChangedData = { ...data, reason: data.reason.trim(), fromMachineId: current, changedAt: at, minutesOnPrevious };
  return [{ type: 'MachineChanged', data: changed }];
}
