// The derived values and flags a record is signed with (issue 21 item 3): judged when the nurse signs, and again when an
// amendment changes the record, on the record as it will then stand, with the company policy in force; the signed record
// answers them from then on, so a later change of the patient's access or of the policy never rewrites it.
import type { AppServices } from '../../../services.js';
import { foldSession, type SessionDoc } from '../../../projections/dialisis/sessionDoc.js';
import { freshClinical } from '../../../queries/dialisis/sessionClinicalView.js';
import { companyPolicy } from '../../../queries/empresas/companyPolicy.js';
import { clinicalPolicyOf } from '../shared/clinicalPolicy.js';
import type { JudgedClinical, SessionEvent } from './sessionEvents.js';

/** The session stream folded with the events about to be appended (`pending`), judged as of `at`. */
export async function judgeClinical(
  services: AppServices,
  tenantId: string,
  stream: string,
  pending: readonly SessionEvent[],
  at: string,
): Promise<JudgedClinical> {
  const recorded = await services.events.readStream(stream);
  let doc: SessionDoc | null = null;
  for (const event of recorded) doc = foldSession(doc, event);
  const last = recorded.at(-1)!;
  pending.forEach((event, i) => {
    const metadata = { ...last.metadata, occurredAt: at };
    doc = foldSession(doc, { ...last, type: event.type, data: event.data, revision: last.revision + 1 + i, metadata });
  });
  const { revision, settings } = await companyPolicy(services, tenantId);
  const { derived, flags } = await freshClinical({ services, auth: { tenantId } }, doc!, clinicalPolicyOf(settings));
  return {
    derived: derived as unknown as Record<string, unknown>,
    flags: flags as unknown as Record<string, unknown>[],
    policyRevision: revision,
    judgedAt: at,
  };
}
