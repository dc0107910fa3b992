// The derived values and flags a record is signed with (issue 21 item 3): judged when the nurse signs, and again when an
// amendment changes the record, on the record as it will then stand, with the company policy in force; the signed record
// answers them from then on, so a later change of the patient's access or of the policy never rewrites it. A fact of
// the signature (SignFacts.judge): it folds the session into its read document and reads the models, so it lives here.
import type { AppServices } from '../../services.js';
import type { PolicyFacts } from '../../commands/empresas/shared/policySettings.js';
import { clinicalPolicyOf } from '../../commands/dialisis/shared/clinicalPolicy.js';
import type { JudgedClinical, SessionEvent } from '../../commands/dialisis/session/sessionEvents.js';
import { foldSession, type SessionDoc } from '../../projections/dialisis/sessionDoc.js';
import { freshClinical } from '../../queries/dialisis/sessionClinicalView.js';
import type { RecordedEvent } from '../../stores/eventStore.js';

/** The session's recorded events folded with the events about to be appended (`pending`), judged as of `at`. */
export async function judgeClinical(
  services: AppServices,
  tenantId: string,
  policy: PolicyFacts,
  at: string,
  recorded: readonly RecordedEvent[],
  pending: readonly SessionEvent[],
): Promise<JudgedClinical> {
  let doc: SessionDoc | null = null;
  for (const event of recorded) doc = foldSession(doc, event);
  const last = recorded.at(-1)!;
  pending.forEach((event, i) => {
    const metadata = { ...last.metadata, occurredAt: at };
    doc = foldSession(doc, { ...last, type: event.type, data: event.data, revision: last.revision + 1 + i, metadata });
  });
  const { derived, flags } = await freshClinical({ services, auth: { tenantId } }, doc!, clinicalPolicyOf(policy.settings));
  return {
    derived: derived as unknown as Record<string, unknown>,
    flags: flags as unknown as Record<string, unknown>[],
    policyRevision: policy.revision,
    judgedAt: at,
  };
}
