// Uniqueness of a patient's identity document within a company. One guard stream per
// (tenant, document type, normalised number): `<tenant>.patientDocument-<uuidv5>`. Claiming appends to it
// with the expected revision the guard was read at, so of two concurrent registrations exactly one wins.
import type { CommandEnvelope, DecidedEvent, Decider } from '../decider.js';
import { rule } from '../decider.js';
import type { DocumentType } from './patientTypes.js';

export type PatientDocumentEvent =
  | DecidedEvent<'PatientDocumentClaimed', { patientId: string; documentType: DocumentType; documentNumber: string }>
  | DecidedEvent<'PatientDocumentReleased', { patientId: string }>;

export type PatientDocumentCommand =
  | CommandEnvelope<'ClaimPatientDocument', { patientId: string; documentType: DocumentType; documentNumber: string }>
  | CommandEnvelope<'ReleasePatientDocument', { patientId: string }>;

export interface PatientDocumentState {
  /** The patient holding the document, or null when free (never claimed or released). */
  holder: string | null;
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

export const patientDocumentDecider: Decider<PatientDocumentCommand, PatientDocumentEvent, PatientDocumentState> = {
  category: 'patientDocument',
  initialState: { holder: null },
  evolve(state, event) {
    switch (event.type) {
      case 'PatientDocumentClaimed':
        return { holder: event.data.patientId };
      case 'PatientDocumentReleased':
        return state.holder === event.data.patientId ? { holder: null } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimPatientDocument':
        if (state.holder === command.data.patientId) return []; // a retry of the same registration
        if (state.holder !== null) {
          throw rule('duplicate-document', 'another patient of this company already has this identity document', {
            documentType: command.data.documentType,
            existingPatientId: state.holder,
          });
        }
        return [{ type: 'PatientDocumentClaimed', data: command.data }];
      case 'ReleasePatientDocument':
        return state.holder === command.data.patientId ? [{ type: 'PatientDocumentReleased', data: command.data }] : [];
    }
  },
};
