// What a dialyzer's label prints (domain.md 3.4): the patient's full name and second identifier, uses, first use,
// last reprocessing and baseline TCV.
import type { TenantScope } from '../tenantScope.js';
import { patients } from '../pacientes/readModel.js';
import { dialyzerModel } from './dialyzers.js';

export interface DialyzerLabel {
  dialyzerId: string;
  model: string;
  serial: string;
  /** The patient the label shows (the access audit names them). */
  patientId: string | null;
  patientName: string | null;
  /** Second identifier: the patient's identity document. */
  patientDocument: string | null;
  uses: number;
  firstUseAt: string | null;
  lastReprocessedAt: string | null;
  baselineTcvMl: number | null;
}

export async function dialyzerLabel(scope: TenantScope, id: string): Promise<DialyzerLabel> {
  const doc = await dialyzerModel.or404(scope, id);
  const patient = doc.patientId ? await patients(scope).get(scope.auth.tenantId, doc.patientId) : null;
  return {
    dialyzerId: doc.id,
    model: doc.model,
    serial: doc.serial,
    patientId: patient ? doc.patientId : null,
    patientName: patient ? `${patient.givenNames} ${patient.familyNames}` : null,
    patientDocument: patient ? `${patient.documentType} ${patient.documentNumber}` : null,
    uses: doc.uses,
    firstUseAt: doc.firstUseAt,
    lastReprocessedAt: doc.lastReprocessedAt,
    baselineTcvMl: doc.baselineTcvMl,
  };
}
