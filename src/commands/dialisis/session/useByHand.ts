// A use of equipment recorded by hand (issue 21 item 10): the session's start claims its equipment and its end's process
// manager records the use, so by hand a use is only back-entry (a downtime, a consequence the end could not apply): for a
// session of this patient that has ended and names that equipment, with the machine's hours from its effective time.
import { rule } from '../../decider.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import type { Equipment } from './sessionEvents.js';
import { checkSessionReference, type SessionFact } from '../shared/sessionReference.js';

export type UsedEquipment = 'machine' | 'dialyzer' | 'arterial' | 'venous';

/** The field of the session's equipment that names a record of this kind. */
export const EQUIPMENT_FIELD: Record<UsedEquipment, keyof Omit<Equipment, 'stationId'>> = {
  machine: 'machineId',
  dialyzer: 'dialyzerId',
  arterial: 'arterialLineId',
  venous: 'venousLineId',
};

/** What the orchestration reads of the named session for a use by hand. */
export interface EndedSessionFacts {
  reference: SessionFact;
  /** The equipment its start claimed (null: never started). */
  equipment: Equipment | null;
  /** Treatment minutes of its end or interruption (null: not ended). */
  effectiveMinutes: number | null;
}

/**
 * Judges a use by hand of `itemId` for the named session: 422 naming sessionId unless it is a session of this patient in
 * this company; 409 session-not-ended while it has not ended (its claims hold the equipment: nothing by hand may free
 * them); 409 not-equipment-of-session unless the session used this very record. Answers its effective minutes.
 */
export function checkUseByHand(facts: EndedSessionFacts, patientId: string, kind: UsedEquipment, itemId: string): number {
  checkSessionReference(new FieldChecks(), 'sessionId', facts.reference, patientId).throwIfAny();
  if (facts.equipment === null || facts.effectiveMinutes === null) {
    throw rule(
      'session-not-ended',
      "a use is recorded by hand only for a session that has ended: a session's start and end record the use of its equipment",
    );
  }
  if (facts.equipment[EQUIPMENT_FIELD[kind]] !== itemId) {
    throw rule(
      'not-equipment-of-session',
      `the session did not use this ${kind === 'machine' || kind === 'dialyzer' ? kind : `${kind} line`}`,
    );
  }
  return facts.effectiveMinutes;
}
