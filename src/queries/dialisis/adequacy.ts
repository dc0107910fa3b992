// Monthly adequacy per patient (issue 10 item 8): the month's measured spKt/V and URR against the company's targets.
import type { TenantScope } from '../tenantScope.js';
import { monthlyAdequacy, type MonthlyAdequacy } from '../../commands/dialisis/shared/monthlyAdequacy.js';
import { patientBriefs, type PatientBrief } from './sessions.js';
import { clinicalPolicy } from './sessionClinicalView.js';
import { treatedWithClinical } from './sessionRange.js';

/** The last day of a YYYY-MM month. */
export function monthEnd(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const day = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${month}-${String(day).padStart(2, '0')}`;
}

export async function adequacyOfMonth(
  scope: TenantScope,
  query: { month: string; patientId?: string; locationId?: string },
): Promise<{ month: string; targets: Record<string, number>; patients: (MonthlyAdequacy & { patient: PatientBrief | { id: string } })[] }> {
  const range = { from: `${query.month}-01`, to: monthEnd(query.month), patientId: query.patientId, locationId: query.locationId };
  const [treated, policy] = await Promise.all([treatedWithClinical(scope, range), clinicalPolicy(scope)]);
  const rows = monthlyAdequacy(
    treated.map(({ doc, clinical }) => ({
      patientId: doc.patientId,
      date: doc.date,
      ...(doc.startedAt ? { at: doc.startedAt } : {}),
      ...(doc.prescription?.frequencyPerWeek !== undefined ? { sessionsPerWeek: doc.prescription.frequencyPerWeek } : {}),
      derived: clinical.derived,
    })),
    policy,
  );
  const names = await patientBriefs(
    scope,
    rows.map((r) => r.patientId),
  );
  return {
    month: query.month,
    targets: {
      ktvMinimum: policy.ktvMinimum,
      ktvTarget: policy.ktvTarget,
      urrMinimumPercent: policy.urrMinimumPercent,
      stdKtVMinimum: policy.stdKtVMinimum,
      stdKtVTarget: policy.stdKtVTarget,
    },
    patients: rows.map((r) => ({ ...r, patient: names.get(r.patientId) ?? { id: r.patientId } })),
  };
}
