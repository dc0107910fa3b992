// Uniqueness of a patient's identity document within a company. One guard stream per
// (tenant, document type, normalised number): `<tenant>.patientDocument-<uuidv5>`. Claiming appends to it
// with the expected revision the guard was read at, so of two concurrent registrations exactly one wins.
import type { CommandEnvelope, DecidedEvent, Decider } from '../decider.js';
import { rule } from '../decider.js';
import type { DocumentType } from './patientTypes.js';

export type PatientDocumentEvent =
  | DecidedEvent<
      'PatientDocumentClaimed',
      // claimedAt: absent on claims recorded before orphaned claims could be taken over.
      { patientId: string; documentType: DocumentType; documentNumber: string; claimedAt?: string }
    >
  | DecidedEvent<'PatientDocumentReleased', { patientId: string; reason?: 'orphaned-claim' }>;

/**
 * What the caller found about the current holder when a claim was refused: a holder whose patient stream does not
 * exist (the registration crashed between claim and append) loses the claim after the grace period.
 */
export interface HolderFacts {
  exists: boolean;
  graceSeconds: number;
}

export type PatientDocumentCommand =
  | CommandEnvelope<'ClaimPatientDocument', { patientId: string; documentType: DocumentType; documentNumber: string; holder?: HolderFacts }>
  | CommandEnvelope<'ReleasePatientDocument', { patientId: string }>;

export interface PatientDocumentState {
  /** The patient holding the document, or null when free (never claimed or released). */
  holder: string | null;
  /** When the holder claimed it (null for claims recorded without the time). */
  claimedAt: string | null;
}

/** Case, spaces, dots, dashes and slashes do not make two documents different: '12.345.678-k' = '12345678K'. */
export function normaliseDocumentNumber(documentNumber: string): string {
  return documentNumber
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s.\-/]/g, '');
}

/** The key the guard stream id is derived from (the HTTP layer turns it into a UUIDv5). */
export function documentKey(documentType: DocumentType, documentNumber: string): string {
  return `${documentType}:${normaliseDocumentNumber(documentNumber)}`;
}

/** A claim whose patient never appeared and that is older than the grace period. */
function orphaned(state: PatientDocumentState, holder: HolderFacts, at: string): boolean {
  if (holder.exists) return false;
  const claimedMs = state.claimedAt === null ? 0 : Date.parse(state.claimedAt);
  return Date.parse(at) - claimedMs >= holder.graceSeconds * 1000;
}

export const patientDocumentDecider: Decider<PatientDocumentCommand, PatientDocumentEvent, PatientDocumentState> = {
  category: 'patientDocument',
  initialState: { holder: null, claimedAt: null },
  evolve(state, event) {
    switch (event.type) {
      case 'PatientDocumentClaimed':
        return { holder: event.data.patientId, claimedAt: event.data.claimedAt ?? null };
      case 'PatientDocumentReleased':
        return state.holder === event.data.patientId ? { holder: null, claimedAt: null } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimPatientDocument': {
        const { patientId, documentType, documentNumber, holder } = command.data;
        if (state.holder === patientId) return []; // a retry of the same registration
        const claimed: PatientDocumentEvent = {
          type: 'PatientDocumentClaimed',
          data: { patientId, documentType, documentNumber, claimedAt: command.at },
        };
        if (state.holder === null) return [claimed];
        if (holder && orphaned(state, holder, command.at)) {
          return [{ type: 'PatientDocumentReleased', data: { patientId: state.holder, reason: 'orphaned-claim' } }, claimed];
        }
        throw rule('duplicate-document', 'another patient of this company already has this identity document', {
          documentType,
          existingPatientId: state.holder,
        });
      }
      case 'ReleasePatientDocument':
        return state.holder === command.data.patientId ? [{ type: 'PatientDocumentReleased', data: command.data }] : [];
    }
  },
};
