// The legal hold's event contract (one stream per patient, `<tenant>.legalHold-<patientId>`): its events and commands;
// the decider, a future retention job and the read side all take them from here.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the legal hold streams: written once, here. */
export const LEGAL_HOLD_CATEGORY = 'legalHold';
/** A patient's legal hold stream, named by the patient's id. */
export const legalHoldStream = (tenantId: string, patientId: string): string => streamName(tenantId, LEGAL_HOLD_CATEGORY, patientId);

export type LegalHoldEvent =
  // reference: the matter it serves (court file, regulator's request), when there is one.
  | DecidedEvent<'LegalHoldPlaced', { patientId: string; reason: string; reference: string | null }>
  | DecidedEvent<'LegalHoldLifted', { patientId: string; reason: string }>;

export const LEGAL_HOLD_EVENT_TYPES: readonly LegalHoldEvent['type'][] = ['LegalHoldPlaced', 'LegalHoldLifted'];

export type LegalHoldCommand =
  | CommandEnvelope<'PlaceLegalHold', { reason: string; reference?: string | null; patient: { exists: true } | null }>
  | CommandEnvelope<'LiftLegalHold', { reason: string }>;
