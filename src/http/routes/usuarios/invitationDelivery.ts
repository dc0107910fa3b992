// How an invitation's one-time token reaches the person: with SMTP_URL only by e-mail to the invited address, so the
// inviting company never holds a secret it could try at /auth/activate to learn whether the address had an account;
// without e-mail the company is the only courier and the answer carries the token (shown once).
import type { RequestContext } from '../../routeTypes.js';
import type { Activation } from '../../../commands/platform/invitationWrites.js';
import { mailConfigured, sendActivationMail } from '../../../notifications/mailer.js';
import { platformCollections } from '../../../queries/platform/memberships.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { tenantOf } from '../shared/adminSupport.js';

export interface Delivered {
  /** The token only when the service sends no e-mail; the same members whatever the token opens. */
  activation: Activation | { expiresAt: string };
  /** The SMTP server accepted the message (false without SMTP_URL, or when the send failed: re-issue the token). */
  emailed: boolean;
}

/** E-mails the token to the person (when configured) and answers what the company may see of it. */
export async function deliverInvitation(
  ctx: RequestContext,
  to: { email: string; name: string },
  invitation: Activation & { opens: 'account' | 'membership' },
): Promise<Delivered> {
  const { opens, ...activation } = invitation;
  const company = await platformCollections(ctx.services).companies.get(PLATFORM_DOCS, tenantOf(ctx));
  const emailed = await sendActivationMail(ctx.services, {
    to: to.email,
    name: to.name,
    companyName: company?.name ?? '',
    opens,
    ...activation,
  });
  if (mailConfigured(ctx.services)) return { activation: { expiresAt: activation.expiresAt }, emailed };
  return { activation, emailed };
}
