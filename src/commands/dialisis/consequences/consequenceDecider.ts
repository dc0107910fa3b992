// What the consequences of a session came to (architecture.md, process managers): each applied or refused consequence
// is recorded on the session's own consequence stream, so a refusal becomes a visible alert, never a silent loss.
// One stream per session (`sessionConsequences-<sessionId>`); a consequence already recorded decides nothing.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { SESSION_CONSEQUENCES_CATEGORY, type ConsequenceData, type ConsequenceEvent } from './consequenceEvents.js';

export type ConsequenceCommand = CommandEnvelope<
  'RecordConsequence',
  ConsequenceData & { refusal: { code: string; message: string } | null }
>;

export interface ConsequenceState {
  recorded: string[];
}

const keyOf = (d: ConsequenceData): string => `${d.kind}\u0000${d.itemId}\u0000${d.causeEventId}`;

export const consequenceDecider: Decider<ConsequenceCommand, ConsequenceEvent, ConsequenceState> = {
  category: SESSION_CONSEQUENCES_CATEGORY,
  initialState: { recorded: [] },
  evolve: (state, event) => ({ recorded: [...state.recorded, keyOf(event.data)] }),
  decide(command, state) {
    const { refusal, ...data } = command.data;
    if (state.recorded.includes(keyOf(data))) return [];
    return refusal ? [{ type: 'ConsequenceRefused', data: { ...data, ...refusal } }] : [{ type: 'ConsequenceApplied', data }];
  },
};
