// /auth/invitations: the pending memberships offered to the signed-in person, which they accept with the invitation's
// one-time token (e-mailed to the address, or handed over by the inviting company) or decline. Until then the
// membership grants nothing: it is not in GET /tenants and cannot be selected.
import { groupRoutes } from '../shared/groupRoutes.js';
import { type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { LIMITS } from '../../../limits.js';
import { acceptInvitation, declineInvitation } from '../../../commands/platform/invitationWrites.js';
import { pendingInvitations } from '../../../queries/platform/invitations.js';
import { listTenants } from '../../../queries/platform/memberships.js';
import Type from 'typebox';
import { callerOf, obj, str, WRITE_HEADERS } from '../shared/adminSupport.js';
import { closed } from '../shared/fieldSchemas.js';
import { writeHeaders } from '../../recordHeaders.js';
import { TenantIdParams, TenantsResponse } from './schemas.js';

const TAG = 'Auth';
const behind503 = problem('The write was recorded but its read model did not apply it in time; retry', {
  'Retry-After': 'Seconds to wait',
});

const InvitationItem = obj({
  companyId: str('The inviting company (accept or decline with it)'),
  companyName: str('Its trade name'),
  roles: { type: 'array', items: { type: 'string' }, description: 'The roles the membership grants once accepted' },
  invitedAt: str('When the company invited you'),
  expiresAt: str('Until when its token accepts it (the company can send a new one)'),
});

const sessionRoutes = groupRoutes(TAG, 'session');

export const invitationRoutes: RouteDecl[] = [
  sessionRoutes.get('/auth/invitations', null, {
    summary: 'The companies that invited you and wait for your answer',
    description: 'A pending membership grants nothing until you accept it: it is not in GET /tenants and cannot be selected.',
    responses: {
      200: { description: 'Pending invitations, oldest first', schema: obj({ items: { type: 'array', items: InvitationItem } }) },
    },
    handle: async (_input, ctx) => ({ status: 200, body: await pendingInvitations(ctx.services, ctx.auth!.userId) }),
  }),
  sessionRoutes.post('/auth/invitations/{id}/accept', null, {
    summary: "Accept a company's invitation with its one-time token: the membership works from now on",
    description:
      'The token is the one the invitation sent to your address (or that the inviting company handed you, when the service sends ' +
      'no e-mail): it works once, for ' +
      `this account and company, until it expires (${LIMITS.activation.ttlSeconds / 3600} h) or the company sends a new one. ` +
      'Being signed in proves the account; the token proves the address received the invitation. Answers the companies you may select.',
    params: TenantIdParams,
    body: closed({ token: Type.String({ minLength: 1, maxLength: 200, description: 'The invitation token' }) }),
    responses: {
      200: { description: 'Accepted: the companies you may select', schema: TenantsResponse, headers: WRITE_HEADERS },
      400: problem('The token is not valid for this invitation (unknown, used, replaced or expired): `/problems/invitation-invalid`'),
      403: problem('The company is suspended (`/problems/company-suspended`)'),
      404: problem('No such company'),
      503: behind503,
    },
    async handle({ params, body }, ctx) {
      const position = await acceptInvitation(
        ctx.services,
        { userId: ctx.auth!.userId, companyId: params.id, token: body.token },
        callerOf(ctx),
      );
      return { status: 200, body: await listTenants(ctx.services, ctx.auth!.userId), headers: writeHeaders({ position }) };
    },
  }),
  sessionRoutes.post('/auth/invitations/{id}/decline', null, {
    summary: "Decline a company's invitation: it ends, and the company sees it ended",
    params: TenantIdParams,
    responses: {
      204: { description: 'Declined', headers: WRITE_HEADERS },
      403: problem('The company is suspended (`/problems/company-suspended`)'),
      404: problem('No pending invitation of yours from this company'),
      503: behind503,
    },
    async handle({ params }, ctx) {
      const position = await declineInvitation(ctx.services, { userId: ctx.auth!.userId, companyId: params.id }, callerOf(ctx));
      return { status: 204, headers: writeHeaders({ position }) };
    },
  }),
];
