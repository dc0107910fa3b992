// The loader of a prescription command's facts (type: src/commands/dialisis/prescription/prescriptionFacts.ts): the
// patient folded from its stream and the prescriber's standing read from the staff model, side by side; the company's
// day on demand. Outside src/commands because it reads read models.
import { patientFacts } from '../../commands/dialisis/prescription/prescriptionWrites.js';
import type { LoadPrescriptionFacts } from '../../commands/dialisis/prescription/prescriptionFacts.js';
import type { AppServices } from '../../services.js';
import { maySignClinicalRecords } from '../../queries/colaboradores/maySign.js';
import { companyDay } from '../../queries/empresas/companyCalendar.js';

/** The caller is the prescriber: a physician's staff record allowed to sign clinical records at the command time. */
export function prescriptionFactLoader(services: AppServices): LoadPrescriptionFacts {
  return async (tenantId, patientId, { actor, at }) => {
    const scope = { services, auth: { tenantId } };
    const [patient, verdict] = await Promise.all([
      patientFacts(services.events, tenantId, patientId),
      maySignClinicalRecords(scope, actor, at, 'physician'),
    ]);
    const prescriber = { userId: actor, staffId: verdict.staffId, allowed: verdict.allowed, reasons: [...verdict.reasons] };
    return { patient, prescriber, today: () => companyDay(scope, new Date(at)) };
  };
}
