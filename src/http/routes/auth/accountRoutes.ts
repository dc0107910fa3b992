// /auth routes beyond the sign-in the specification fixes: activating an invitation, changing one's own password,
// and the OAuth 2.0 client-credentials token endpoint for programs.
import { groupRoutes } from '../shared/groupRoutes.js';
import { type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { LIMITS } from '../../../limits.js';
import { ProblemError } from '../../../problems.js';
import { DomainError } from '../../../commands/decider.js';
import { activateAccount, changeOwnPassword } from '../../../commands/platform/usuariosWrites.js';
import { issueClientToken } from '../../../commands/platform/apiClientWrites.js';
import { ActivateBody, ActivatedSchema, ChangePasswordBody } from '../usuarios/schemas.js';
import Type from 'typebox';
import { callerOf, obj, str } from '../shared/adminSupport.js';
import { closed } from '../shared/fieldSchemas.js';

const TAG = 'Auth';
const pw = LIMITS.newPassword;
const throttled = problem('Throttled; wait Retry-After seconds', { 'Retry-After': 'Seconds to wait before trying again' });
const PASSWORD_RULES =
  `Password policy (OWASP ASVS 5.0 V6.2): at least ${pw.minChars} and at most ${pw.maxChars} characters (Unicode code points), ` +
  'any characters, no composition rules; refused when it is a known breached or common password (a bundled list of about 49,000) ' +
  "or contains the e-mail name or the person's name (422 `/problems/weak-password` naming the field).";

/** RFC 6749 5.2: a token error carries `error` (and is still a problem document). */
const oauthError = (status: 400 | 401, error: string, detail: string, headers: Record<string, string> = {}): ProblemError =>
  new ProblemError(status, error.replace(/_/g, '-'), status === 401 ? 'Unauthorized' : 'Bad Request', detail, headers, undefined, {
    error,
  });

const TokenBody = closed({
  grant_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  scope: Type.Optional(Type.String({ maxLength: 512, description: 'Ignored: the client has the permissions of its roles' })),
});

function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const m = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
  const unform = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
  try {
    return { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

const publicRoutes = groupRoutes(TAG, 'public');
const sessionRoutes = groupRoutes(TAG, 'session');

export const accountRoutes: RouteDecl[] = [
  publicRoutes.post('/auth/activate', null, {
    summary: 'Activate an invitation: the activation token and a new password',
    description:
      `The token works once, until it expires (${LIMITS.activation.ttlSeconds / 3600} h) or a new one replaces it; any unusable token answers the same 400. ${PASSWORD_RULES} The first sign-in then enrolls the authenticator. ` +
      "A company's invitation token is judged against the name and e-mail that company entered, and the password is judged before " +
      'the token is told apart: a token that only accepts a membership of an existing account (its holder accepts it signed in, ' +
      "POST /auth/invitations/{companyId}/accept) answers every refused password exactly like a new account's token, and a " +
      'password the policy accepts with the same 400 as an unknown token. The one difference is an activation itself: only a new ' +
      "account's token sets a password. When the service sends no e-mail the inviting company holds the token, so it could learn " +
      'that an address had no account by activating that account in its place (which then answers to its password, not to the ' +
      "person's); with SMTP_URL the company never holds the token.",
    body: ActivateBody,
    responses: {
      200: { description: 'Activated: sign in with the e-mail and the new password', schema: ActivatedSchema },
      400: problem('The activation token is not valid (`/problems/activation-invalid`), or a malformed body'),
      422: problem('The password is refused by the policy (`/problems/weak-password`, with `reason`)'),
      429: throttled,
    },
    async handle({ body }, ctx) {
      const activated = await activateAccount(ctx.services, body, {
        correlationId: ctx.correlationId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        rateLimits: ctx.rateLimits,
      });
      return { status: 200, body: { userId: activated.userId, email: activated.email } };
    },
  }),
  sessionRoutes.post('/auth/password', null, {
    summary: 'Change your own password (current password and a fresh authenticator code)',
    description: `${PASSWORD_RULES} Every other session of the account ends; this one stays.`,
    body: ChangePasswordBody,
    responses: { 204: { description: 'Changed' }, 409: problem('No second factor enrolled'), 429: throttled },
    async handle({ body }, ctx) {
      await changeOwnPassword(ctx.services, { userId: ctx.auth!.userId, sessionId: ctx.auth!.sessionId, ...body }, callerOf(ctx));
      return { status: 204 };
    },
  }),
  publicRoutes.post('/auth/token', null, {
    formEncoded: true,
    summary: 'OAuth 2.0 client credentials (RFC 6749 section 4.4): an API client gets a bearer token bound to its company',
    description:
      'Form-encoded as the RFC says (JSON also accepted). Client authentication by HTTP Basic (RFC 6749 2.3.1) or client_id and ' +
      `client_secret in the body. The token lives ${LIMITS.apiClients.tokenTtlSeconds} s and stops working at once when the client is revoked; ` +
      `no refresh token. Throttled: ${LIMITS.apiClients.perIpPerMinute} requests per minute per address, ${LIMITS.apiClients.clientFailuresPerWindow} ` +
      `wrong secrets per client and address per ${LIMITS.apiClients.windowSeconds / 60} min (429 with Retry-After). Errors carry the RFC's \`error\` member.`,
    body: TokenBody,
    requestHeaders: { Authorization: { required: false, description: 'Basic base64(client_id:client_secret)' } },
    responses: {
      200: {
        description: 'The access token (RFC 6749 5.1)',
        schema: obj({
          access_token: str('Bearer token'),
          token_type: { type: 'string', enum: ['Bearer'] },
          expires_in: { type: 'integer' },
        }),
        headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
      },
      400: problem('RFC 6749 5.2 error: invalid_request, unsupported_grant_type'),
      401: problem('RFC 6749 5.2 error invalid_client: unknown client, wrong or expired secret, revoked client', {
        'WWW-Authenticate': 'Basic realm="dialysis"',
      }),
      429: throttled,
    },
    async handle({ body, headers }, ctx) {
      // RFC 6749 5.2: a request without its grant type is invalid_request, another grant type unsupported_grant_type.
      if (!body.grant_type) throw oauthError(400, 'invalid_request', 'grant_type is required');
      if (body.grant_type !== 'client_credentials')
        throw oauthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported');
      const basic = basicCredentials(headers.authorization);
      const clientId = basic?.clientId ?? body.client_id;
      const clientSecret = basic?.clientSecret ?? body.client_secret;
      if (!clientId || !clientSecret) throw oauthError(400, 'invalid_request', 'Send client_id and client_secret (HTTP Basic or the body)');
      try {
        const issued = await issueClientToken(
          ctx.services,
          { clientId, clientSecret },
          { ip: ctx.ip, userAgent: ctx.userAgent, correlationId: ctx.correlationId, rateLimits: ctx.rateLimits },
        );
        return {
          status: 200,
          body: { access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn },
          headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
        };
      } catch (err) {
        if (err instanceof DomainError && err.code === 'invalid-client') {
          throw oauthError(401, 'invalid_client', 'Client authentication failed', { 'WWW-Authenticate': 'Basic realm="dialysis"' });
        }
        throw err;
      }
    },
  }),
];
