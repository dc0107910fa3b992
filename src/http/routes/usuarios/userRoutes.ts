// /usuarios: the people of the selected company (invite, list, read, roles, revoke, second-factor reset, a new
// activation token) and the platform's deactivation of an account.
import { groupRoutes } from '../shared/groupRoutes.js';
import Type from 'typebox';
import { route, type RouteDecl } from '../../routeTypes.js';
import { MinPositionField, PageQueryFields, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { writeHeaders } from '../../recordHeaders.js';
import {
  changeMemberRoles,
  deactivateAccount,
  reissueActivation,
  resetSecondFactor,
  revokeMember,
} from '../../../commands/platform/usuariosWrites.js';
import { inviteUser, reissueInvitation, throttleInvitation } from '../../../commands/platform/invitationWrites.js';
import { LIMITS } from '../../../limits.js';
import { companyUser, companyUserAt, listCompanyUsers } from '../../../queries/usuarios/companyUsers.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { READ_HEADERS } from '../shared/recordSupport.js';
import { deliverInvitation } from './invitationDelivery.js';
import { closed } from '../shared/fieldSchemas.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { platformCollections } from '../../../queries/platform/memberships.js';
import { notFound, rule } from '../../../commands/decider.js';
import {
  badCursor400,
  behind503,
  callerOf,
  conflict409,
  ok,
  tenantOf,
  WRITE_HEADERS,
  mustHoldWhatTheyGrant,
  mustBeCompanyOwnedAccount,
  privilegedCaller,
  refusals403,
  writeOnRecordAnswers,
} from '../shared/adminSupport.js';
import { mustOutrankMember } from '../../../commands/platform/privilegeWrites.js';
import {
  ActivationSchema,
  CompanyUserPage,
  CompanyUserSchema,
  InvitationSchema,
  InviteBody,
  ReasonBody,
  RolesBody,
  UserIdParams,
} from './schemas.js';
import type { HttpResult, RequestContext, ResponseDecl, TenantRequestContext } from '../../routeTypes.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, ADMIN } = groupNames('usuarios', 'Usuarios');

const notMember404 = problem('No such user in the selected company (a user of another company is reported the same way)');
const MEMBERSHIP_FILTER = { activa: 'active', pendiente: 'pending', revocada: 'revoked' } as const;
const throttled429 = problem('Too many invitations (per company or per inviting person); wait Retry-After seconds', {
  'Retry-After': 'Seconds to wait before trying again',
});

/** 404 unless the user is a member of the selected company (or invited, where `alsoPending`): administrators act only on their own people. */
async function requireMembership(ctx: TenantRequestContext, userId: string, alsoPending = false): Promise<'active' | 'pending'> {
  const { membership } = await companyUser(ctx, userId);
  if (membership === 'active' || (alsoPending && membership === 'pending')) return membership;
  throw notFound('user');
}

/** A write on a member: they are one of the company's (404 otherwise) and the caller outranks them (403 otherwise). */
async function mustOutrankMemberOf(ctx: TenantRequestContext, userId: string, alsoPending = false): Promise<void> {
  await requireMembership(ctx, userId, alsoPending);
  await mustOutrankMember(ctx.services, privilegedCaller(ctx), userId);
}

const written = async (ctx: TenantRequestContext, userId: string, position: bigint | null, status = 200) => ({
  status,
  body: await companyUser(ctx, userId),
  headers: writeHeaders({ position }),
});

/** A write on one member, with its reason: the member's id, a reason body and the answers every member write shares. */
const memberWrite = (
  summary: string,
  description: string,
  answered: string,
  refused: ResponseDecl,
  write: (ctx: TenantRequestContext, userId: string, reason: string) => Promise<HttpResult>,
  options?: { conflicts?: boolean },
) => ({
  summary,
  description,
  params: UserIdParams,
  body: ReasonBody,
  responses: writeOnRecordAnswers({ 200: ok(answered, CompanyUserSchema, WRITE_HEADERS) }, refused, notMember404, options),
  handle: ({ params, body }: { params: { id: string }; body: { reason: string } }, ctx: RequestContext) =>
    write(ctx as TenantRequestContext, params.id, body.reason),
});

const platformRoutes = groupRoutes(TAG, 'platform');
const routes = groupRoutes(TAG);

export const userRoutes: RouteDecl[] = [
  routes.post('/usuarios', ADMIN, {
    // Not idempotent on purpose: a replayed answer is kept in the log, and this one carries a secret shown once.
    summary: 'Invite a person into the company with roles',
    description:
      'The invitation is a *pending* membership (`membership: pending`): it grants nothing until the person accepts it, and ' +
      `comes with a one-time token valid ${LIMITS.activation.ttlSeconds / 3600} h. When the service has SMTP_URL the token is e-mailed ` +
      'to the address only (`activation` carries just `expiresAt`; `emailed: false` means the send failed: re-issue it); without ' +
      'e-mail it is in this answer (shown once) for the company to hand over. For a new address the token activates the account (POST /auth/activate with a password), ' +
      'which accepts the invitation; for an address that already has an account, its holder signs in and accepts with the token ' +
      '(POST /auth/invitations/{companyId}/accept). The answer is the same either way, and until acceptance the person shows only ' +
      "what this company entered (never another company's name, status, second factor or last sign-in). The roles must exist in " +
      `this company (GET /roles). At most ${LIMITS.invitations.perInviterPerHour} invitations an hour per inviting person and ` +
      `${LIMITS.invitations.perCompanyPerHour} per company (429 with Retry-After).`,
    body: InviteBody,
    responses: {
      201: ok('The invited member', InvitationSchema, { ...WRITE_HEADERS, Location: 'URL of the user in this company' }),
      403: refusals403('grant'),
      409: conflict409,
      429: throttled429,
      503: behind503,
    },
    async handle({ body }, ctx) {
      const tctx = ctx as TenantRequestContext;
      await mustHoldWhatTheyGrant(ctx, { roles: body.roles });
      await throttleInvitation(ctx.services, tenantOf(ctx), ctx.auth!.userId, ctx.rateLimits);
      const invited = await inviteUser(ctx.services, { companyId: tenantOf(ctx), ...body }, callerOf(ctx));
      const user = await companyUser(tctx, invited.userId);
      const delivered = await deliverInvitation(ctx, user, { ...invited.activation, opens: invited.opens });
      return {
        status: 201,
        body: { user, ...delivered },
        headers: writeHeaders({ position: invited.position, location: `/usuarios/${invited.userId}` }),
      };
    },
  }),
  route({
    method: 'get',
    path: '/usuarios',
    legacyQuery: ['membresia'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'The people of the company with roles, membership, account status and last sign-in',
    description: 'A person who has not accepted the invitation (`membership: pending`) shows only what this company entered.',
    query: closed({ ...PageQueryFields, ...MinPositionField, membership: Type.Optional(Type.Enum(['activa', 'pendiente', 'revocada'])) }),
    responses: { 200: ok('A page of users', CompanyUserPage), 400: badCursor400, 503: behind503 },
    async handle({ query }, ctx) {
      await awaitMinPosition(ctx, query.minPosition);
      const membership = query.membership ? MEMBERSHIP_FILTER[query.membership] : undefined;
      const page = await listCompanyUsers(ctx as TenantRequestContext, {
        limit: query.limit,
        cursor: query.cursor ?? null,
        ...(membership ? { membership } : {}),
        ...(query.updatedSince ? { updatedSince: query.updatedSince } : {}),
      });
      return { status: 200, body: page };
    },
  }),
  routes.get('/usuarios/{id}', READ, {
    summary: 'A user of the company',
    params: UserIdParams,
    query: RecordReadQuerySchema,
    responses: { 200: ok('The user', CompanyUserSchema, READ_HEADERS), 404: notMember404, 503: behind503 },
    async handle({ params, query }, ctx) {
      const point = pointOf(query);
      if (point) {
        // Versions are the account's; its ETag names the version (the read without a point has none).
        const at = await companyUserAt(ctx as TenantRequestContext, params.id, point);
        return { status: 200, body: at.doc, headers: await asOfHeaders(ctx, { ...at, doc: { revision: at.version } }) };
      }
      await awaitMinPosition(ctx, query.minPosition);
      return { status: 200, body: await companyUser(ctx as TenantRequestContext, params.id) };
    },
  }),
  routes.put('/usuarios/{id}/roles', ADMIN, {
    summary: "Change a member's roles (effective on their next request)",
    description: 'The company keeps at least one admin: a change that would leave none answers 409 `/problems/last-admin`.',
    params: UserIdParams,
    body: RolesBody,
    responses: writeOnRecordAnswers(
      { 200: ok('The user with the new roles', CompanyUserSchema, WRITE_HEADERS) },
      refusals403('outranked', 'grant'),
      notMember404,
    ),
    async handle({ params, body }, ctx) {
      const tctx = ctx as TenantRequestContext;
      await mustOutrankMemberOf(tctx, params.id);
      await mustHoldWhatTheyGrant(ctx, { roles: body.roles });
      const position = await changeMemberRoles(
        ctx.services,
        { companyId: tenantOf(ctx), userId: params.id, roles: body.roles },
        callerOf(ctx, body.reason),
      );
      return written(tctx, params.id, position);
    },
  }),
  routes.post(
    '/usuarios/{id}/revocacion',
    ADMIN,
    memberWrite(
      "Revoke a member's membership (or withdraw a pending invitation): their sessions in this company end at once",
      'The account stays (it may belong to other companies); the membership is kept as revoked for the record.',
      'The user, membership revoked',
      refusals403('outranked'),
      async (ctx, userId, reason) => {
        await mustOutrankMemberOf(ctx, userId, true);
        return written(ctx, userId, await revokeMember(ctx.services, { companyId: tenantOf(ctx), userId }, callerOf(ctx, reason)));
      },
    ),
  ),
  routes.post(
    '/usuarios/{id}/reinicio-2fa',
    ADMIN,
    memberWrite(
      "Reset a member's second factor (lost phone): they enroll a new authenticator at the next sign-in",
      'Their trusted devices are forgotten and their sessions end at once.',
      'The user',
      refusals403('outranked', 'shared'),
      async (ctx, userId, reason) => {
        await requireMembership(ctx, userId);
        await mustBeCompanyOwnedAccount(ctx, userId);
        await mustOutrankMember(ctx.services, privilegedCaller(ctx), userId);
        return written(ctx, userId, await resetSecondFactor(ctx.services, userId, callerOf(ctx, reason)));
      },
      { conflicts: false },
    ),
  ),
  routes.post('/usuarios/{id}/activacion', ADMIN, {
    summary: 'A new invitation token for a pending member (or an activation token for a member who has no password yet)',
    description:
      'The previous token stops working. For a pending member the answer is the same whether or not the address had an account: ' +
      "the token activates the account only when this company's invitation created it, otherwise it accepts the membership. " +
      'Like the invitation, the token is only e-mailed when the service has SMTP_URL, and only in this answer when it has not.',
    params: UserIdParams,
    body: ReasonBody,
    responses: {
      200: ok(
        'The new token: e-mailed (SMTP_URL), or in this answer (shown once) when the service sends no e-mail',
        {
          type: 'object',
          additionalProperties: false,
          required: ['activation', 'emailed'],
          properties: { activation: ActivationSchema, emailed: { type: 'boolean' } },
        },
        WRITE_HEADERS,
      ),
      403: refusals403('outranked', 'shared'),
      404: notMember404,
      409: conflict409,
      429: throttled429,
    },
    async handle({ params, body }, ctx) {
      const tctx = ctx as TenantRequestContext;
      const membership = await requireMembership(tctx, params.id, true);
      if (membership === 'active') await mustBeCompanyOwnedAccount(ctx, params.id);
      await mustOutrankMember(ctx.services, privilegedCaller(ctx), params.id);
      // A new token is e-mailed like an invitation: it counts against the same limits.
      await throttleInvitation(ctx.services, tenantOf(ctx), ctx.auth!.userId, ctx.rateLimits);
      const user = await companyUser(tctx, params.id);
      const caller = callerOf(ctx, body.reason);
      const { position, ...invitation } =
        membership === 'pending'
          ? await reissueInvitation(ctx.services, { companyId: tenantOf(ctx), userId: params.id }, caller)
          : { ...(await reissueActivation(ctx.services, params.id, caller, tenantOf(ctx))), opens: 'account' as const };
      return { status: 200, body: await deliverInvitation(ctx, user, invitation), headers: writeHeaders({ position }) };
    },
  }),
  platformRoutes.post('/usuarios/{id}/desactivacion', null, {
    summary: 'Platform: deactivate an account everywhere; every session of it ends at once',
    params: UserIdParams,
    body: ReasonBody,
    responses: {
      200: ok(
        'Deactivated',
        {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'active'],
          properties: { id: { type: 'string' }, active: { type: 'boolean' } },
        },
        WRITE_HEADERS,
      ),
      404: problem('No such user'),
      409: problem('Your own account (`/problems/cannot-deactivate-self`), or the last platform administrator (`last-platform-admin`)'),
      503: behind503,
    },
    async handle({ params, body }, ctx) {
      const exists = await platformCollections(ctx.services).users.get(PLATFORM_DOCS, params.id);
      if (!exists) throw notFound('user');
      // The platform must never lock out the one who operates it: another administrator deactivates an administrator.
      if (params.id === ctx.auth!.userId) throw rule('cannot-deactivate-self', 'you cannot deactivate your own account');
      // Nor the operator (ops:) or anyone else the last one: nobody could sign in to operate the platform after it.
      const users = platformCollections(ctx.services).users;
      if (exists.platformAdmin && exists.active && (await users.count(PLATFORM_DOCS, { platformAdmin: true, active: true })) <= 1)
        throw rule('last-platform-admin', 'the last active platform administrator cannot be deactivated: make another one first');
      const position = await deactivateAccount(ctx.services, params.id, callerOf(ctx, body.reason));
      return { status: 200, body: { id: params.id, active: false }, headers: writeHeaders({ position }) };
    },
  }),
];
