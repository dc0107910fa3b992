// The Auth group: the sign-in flow the public specification fixes (/auth/*, /tenants*), plus the
// platform read models it needs (users, sessions, companies and memberships).
import { groupRoutes } from '../shared/groupRoutes.js';
import type { GroupModule } from '../../groupModule.js';
import { type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { LIMITS } from '../../../limits.js';
import { login, type Client } from '../../../commands/platform/signInWrites.js';
import { verifySecondFactor } from '../../../commands/platform/secondFactorWrites.js';
import { logout, refreshSession, selectCompany } from '../../../commands/platform/sessionWrites.js';
import { describeMe, listTenants } from '../../../queries/platform/memberships.js';
import { accountRoutes } from './accountRoutes.js';
import { invitationRoutes } from './invitationRoutes.js';
import { usersProjection } from '../../../projections/platform/usersProjection.js';
import { sessionsProjection } from '../../../projections/platform/sessionsProjection.js';
import { companiesProjection } from '../../../projections/platform/companiesProjection.js';
import {
  LoginBody,
  LoginResponse,
  MeResponse,
  RefreshBody,
  SelectionResponse,
  TenantIdParams,
  TenantsResponse,
  SignedInSchema,
  TokenPairSchema,
  Verify2faBody,
} from './schemas.js';

export const AUTH_TAG = 'Auth';

const clientOf = (ctx: RequestContext): Client => ({
  ip: ctx.ip,
  userAgent: ctx.userAgent,
  correlationId: ctx.correlationId,
  rateLimits: ctx.rateLimits,
});
const behind503 = problem('The write was recorded but its read model did not apply it in time (`/problems/projection-behind`); retry', {
  'Retry-After': 'Seconds to wait',
});
const throttled = (what: string) =>
  problem(`Throttled (${what}); wait Retry-After seconds`, { 'Retry-After': 'Seconds to wait before trying again' });
const login_ = LIMITS.throttling.login;
const verify_ = LIMITS.throttling.verify2fa;
/** Params or query a route does not declare. */

const publicRoutes = groupRoutes(AUTH_TAG, 'public');
const sessionRoutes = groupRoutes(AUTH_TAG, 'session');

const routes: RouteDecl[] = [
  publicRoutes.post('/auth/login', null, {
    summary: 'Sign in, step 1: e-mail and password -> challenge for the second factor',
    description:
      'Any wrong credential (unknown e-mail, wrong password, deactivated account) answers the same 401. ' +
      `Throttled per client address (${login_.perIpPerMinute}/min) and per account: after ${login_.accountFailuresBeforeDelay} consecutive failures ` +
      `each attempt must wait a growing delay (2, 4, 8 ... up to ${login_.accountLongestDelaySeconds} s; never more than ${login_.accountMaxFailuresPerHour} failures an hour), ` +
      'never a lock. Each attempt is counted before its password is checked, so concurrent attempts cannot outrun the throttle. ' +
      `A user holds at most ${LIMITS.challenge.maxOpenPerUser} unused, unexpired challenges; another login answers 429 until one is used or expires. ` +
      'Trusted devices (OWASP device cookies): an attempt that presents the `deviceToken` of an earlier sign-in of this account is ' +
      'counted on that device alone, with the same delays and challenge cap, so failures that came without it (anyone who knows the e-mail, ' +
      'or even the password) never hold it; neither do they hold the second factor of the challenge it receives. ' +
      'An account without a confirmed TOTP second factor also receives its enrollment (secret, otpauth URI, QR code).',
    body: LoginBody,
    responses: {
      503: behind503,
      200: { description: 'Challenge issued', schema: LoginResponse },
      401: problem('Wrong credentials (`/problems/invalid-credentials`)'),
      429: throttled('per address, per account or trusted device, or too many open challenges'),
    },
    handle: async (input, ctx) => ({ status: 200, body: await login(ctx.services, input.body, clientOf(ctx)) }),
  }),
  publicRoutes.post('/auth/verify-2fa', null, {
    summary: 'Sign in, step 2: challenge and TOTP code -> access and refresh tokens',
    description:
      `TOTP per RFC 6238 (SHA-1, 6 digits, 30 s); the current and the previous step are accepted, and a code is accepted once per user ever (replays refused). ` +
      `The challenge is single use, lives ${LIMITS.challenge.ttlSeconds} s and dies after ${LIMITS.challenge.maxCodeAttempts} wrong codes; ` +
      `${verify_.userFailuresPerWindow} wrong codes per user within ${verify_.windowSeconds / 60} min, or ${verify_.perIpPerMinute} codes per client address a minute, answer 429. ` +
      'Every attempt is counted (on the challenge and on the user) before its code is evaluated: a burst of concurrent codes evaluates no more than these limits. ' +
      'The per-user count of a challenge whose login presented a trusted device token is kept for that device alone. ' +
      `Starts a server-side session (idle ${LIMITS.session.idleSeconds / 60} min, absolute ${LIMITS.session.absoluteSeconds / 3600} h) ` +
      `and returns a new device token for this client (trusted ${LIMITS.deviceToken.ttlSeconds / 86_400} days), replacing the one its login presented.`,
    body: Verify2faBody,
    responses: {
      503: behind503,
      200: { description: 'Signed in', schema: SignedInSchema },
      401: problem('Wrong code (`/problems/invalid-code`) or unusable challenge (`/problems/invalid-challenge`)'),
      429: throttled('too many wrong codes for this user, or too many codes from this address'),
    },
    handle: async (input, ctx) => ({ status: 200, body: await verifySecondFactor(ctx.services, input.body, clientOf(ctx)) }),
  }),
  publicRoutes.post('/auth/refresh', null, {
    summary: 'Exchange the refresh token for a new token pair (rotation)',
    description: 'Each refresh token works once. Presenting an already rotated-out refresh token revokes the whole session (token theft).',
    body: RefreshBody,
    responses: {
      503: behind503,
      200: { description: 'New token pair', schema: TokenPairSchema },
      401: problem('Unknown, used or expired refresh token, or ended session (`/problems/invalid-refresh-token`)'),
    },
    handle: async (input, ctx) => ({ status: 200, body: await refreshSession(ctx.services, input.body.refreshToken, clientOf(ctx)) }),
  }),
  {
    method: 'post',
    path: '/auth/logout',
    tag: AUTH_TAG,
    auth: 'session',
    summary: 'End the session: every token of it stops working at once',
    responses: { 204: { description: 'Signed out' }, 503: behind503 },
    handle: async (_input, ctx) => {
      await logout(ctx.services, ctx.auth!, clientOf(ctx));
      return { status: 204 };
    },
  },
  {
    method: 'get',
    path: '/auth/me',
    tag: AUTH_TAG,
    auth: 'session',
    summary: 'The signed-in user, the session and the selected company with roles and permissions',
    responses: { 200: { description: 'Who you are', schema: MeResponse } },
    handle: async (_input, ctx) => ({ status: 200, body: await describeMe(ctx.services, ctx.auth!) }),
  },
  {
    method: 'get',
    path: '/tenants',
    tag: AUTH_TAG,
    auth: 'session',
    summary: 'The companies this user may select',
    responses: { 200: { description: "Companies with the user's roles", schema: TenantsResponse } },
    handle: async (_input, ctx) => ({ status: 200, body: await listTenants(ctx.services, ctx.auth!.userId) }),
  },
  sessionRoutes.post('/tenants/{id}/select', null, {
    summary: 'Select the company this session works in',
    description:
      'Recorded on the server-side session (the access token does not change). Every company-scoped route then works in this company.',
    params: TenantIdParams,
    responses: {
      503: behind503,
      200: { description: 'Company selected', schema: SelectionResponse },
      404: problem("No such company among the user's companies"),
    },
    handle: async (input, ctx) => ({ status: 200, body: await selectCompany(ctx.services, ctx.auth!, input.params.id, clientOf(ctx)) }),
  }),
];

export const authGroup: GroupModule = {
  tag: AUTH_TAG,
  description:
    'Sign-in (password, then TOTP second factor), server-side sessions with rotating refresh tokens, and selection of the company to work in',
  permissions: [],
  routes: [...routes, ...accountRoutes, ...invitationRoutes],
  projections: [usersProjection, sessionsProjection, companiesProjection],
};
