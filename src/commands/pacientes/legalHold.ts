// The legal hold on a patient: while it is in force nothing of the patient may be archived or purged, whatever the
// retention periods of the company policy say (mayDispose is the rule a future retention job must apply).
import { DomainError, type Decider } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import { LEGAL_HOLD_CATEGORY, type LegalHoldCommand, type LegalHoldEvent } from './legalHoldEvents.js';

export interface LegalHoldState {
  held: boolean;
}

export const legalHoldDecider: Decider<LegalHoldCommand, LegalHoldEvent, LegalHoldState> = {
  category: LEGAL_HOLD_CATEGORY,
  initialState: { held: false },
  evolve: (_state, event) => ({ held: event.type === 'LegalHoldPlaced' }),
  decide(command, state) {
    const reason = command.data.reason.trim();
    const patientId = command.aggregateId;
    switch (command.type) {
      case 'PlaceLegalHold': {
        if (!command.data.patient) throw new DomainError('not-found', 'Patient not found', 404);
        new FieldChecks().check(reason.length > 0, 'reason', 'must not be blank').throwIfAny();
        if (state.held) throw new DomainError('legal-hold-in-force', 'The patient is already under legal hold: lift it first', 409);
        const reference = command.data.reference?.trim() || null;
        return [{ type: 'LegalHoldPlaced', data: { patientId, reason, reference } }];
      }
      case 'LiftLegalHold':
        new FieldChecks().check(reason.length > 0, 'reason', 'must not be blank').throwIfAny();
        if (!state.held) throw new DomainError('no-legal-hold', 'The patient is not under legal hold', 409);
        return [{ type: 'LegalHoldLifted', data: { patientId, reason } }];
    }
  },
};

export type Disposal =
  { dispose: true } | { dispose: false; because: 'legal-hold' } | { dispose: false; because: 'retention-period'; keepUntil: string };

/**
 * Whether a record may be disposed of (archived or purged) at `now`: never while its patient is under legal hold; else
 * only once its record type's period (company policy, settings/retention) has run from `countedFrom`.
 */
export function mayDispose(facts: { held: boolean; periodYears: number; countedFrom: string; now: string }): Disposal {
  if (facts.held) return { dispose: false, because: 'legal-hold' };
  const until = new Date(facts.countedFrom);
  until.setUTCFullYear(until.getUTCFullYear() + facts.periodYears);
  if (new Date(facts.now).getTime() < until.getTime())
    return { dispose: false, because: 'retention-period', keepUntil: until.toISOString() };
  return { dispose: true };
}
