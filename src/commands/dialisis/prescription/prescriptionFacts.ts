// The facts a prescription's issue or discontinuation judges (issue 22 item 3), declared here and gathered once by
// src/facts/dialisis/prescriptionFactLoader.ts: each says whether it is folded from a stream (strong) or read from a
// model (eventual).
import type { PatientFacts, PrescriberFacts } from './prescriptionEvents.js';

export interface PrescriptionFacts {
  /** Folded from the patient's stream: a patient of another company is simply absent. */
  patient: PatientFacts;
  /** Read from the staff and job-position models (eventual): the caller's standing to prescribe at the command time. */
  prescriber: PrescriberFacts;
  /** Read from the companies model (eventual), when asked: the company's calendar day at the command time. */
  today: () => Promise<string>;
}

export type LoadPrescriptionFacts = (tenantId: string, patientId: string, who: { actor: string; at: string }) => Promise<PrescriptionFacts>;
