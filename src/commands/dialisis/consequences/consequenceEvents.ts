// The session consequences' event contract: each consequence of a session applied or refused, on the session's own
// consequence stream (`<tenant>.sessionConsequences-<sessionId>`); the decider and the read side take them from here.
import type { DecidedEvent } from '../../decider.js';
import { streamName } from '../../../stores/streamNames.js';

/** The category of the consequence streams: written once, here. */
export const SESSION_CONSEQUENCES_CATEGORY = 'sessionConsequences';
export const consequenceStream = (tenantId: string, sessionId: string): string =>
  streamName(tenantId, SESSION_CONSEQUENCES_CATEGORY, sessionId);

export const CONSEQUENCE_KINDS = [
  'machine-use',
  'dialyzer-use',
  'arterial-line-use',
  'venous-line-use',
  'payer-authorization',
  'supply',
] as const;
export type ConsequenceKind = (typeof CONSEQUENCE_KINDS)[number];

export type ConsequenceData = {
  kind: ConsequenceKind;
  itemId: string;
  /** The session event that caused it (SessionEnded or SessionInterrupted). */
  causeEventId: string;
};

export type ConsequenceEvent =
  | DecidedEvent<'ConsequenceApplied', ConsequenceData>
  | DecidedEvent<'ConsequenceRefused', ConsequenceData & { code: string; message: string }>;
