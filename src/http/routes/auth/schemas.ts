// JSON Schemas of the Auth group: request bodies and every success answer, exactly as the API returns them.
// Request schemas are TypeBox values: their handlers' input types come from them.
import Type from 'typebox';
import type { JsonSchema } from '../../routeTypes.js';
import { closed } from '../shared/fieldSchemas.js';
import { LIMITS } from '../../../limits.js';
import { PASSWORD_POLICY } from '../../../auth/passwords.js';

const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  required,
  properties,
  additionalProperties: false,
});
const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const strings = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

const deviceDays = LIMITS.deviceToken.ttlSeconds / 86_400;

export const LoginBody = closed({
  email: Type.String({ description: 'E-mail of the account (case-insensitive)', format: 'email', maxLength: 254 }),
  password: Type.String({ description: 'Password', minLength: 1, maxLength: PASSWORD_POLICY.maxLength }),
  deviceToken: Type.Optional(
    Type.String({
      description:
        'The device token of the last sign-in completed on this client (`deviceToken` of POST /auth/verify-2fa). ' +
        'While it is valid for this account, this attempt and its second factor are throttled on this device alone, ' +
        'not by failures that came without it; a token that is unknown, expired, retired or of another account counts as absent',
      minLength: 1,
      maxLength: 128,
    }),
  ),
});

export const EnrollmentSchema = obj({
  secret: str('TOTP secret (Base32; SHA-1, 6 digits, 30 s) to enter in an authenticator app'),
  otpauthUri: str('The same secret as an otpauth:// URI'),
  qrPng: str('QR code of the otpauth URI as a data: URI (image/png)', { pattern: '^data:image/png;base64,' }),
});

export const LoginResponse = obj(
  {
    challenge: str(
      `Single-use challenge for POST /auth/verify-2fa (256-bit random; valid ${LIMITS.challenge.ttlSeconds} s, ${LIMITS.challenge.maxCodeAttempts} codes)`,
    ),
    expiresIn: { type: 'integer', description: 'Seconds the challenge stays valid' },
    enrollment: {
      ...EnrollmentSchema,
      description: 'Present while the account has no confirmed second factor: the first valid code confirms it',
    },
  },
  ['challenge', 'expiresIn'],
);

export const Verify2faBody = closed({
  challenge: Type.String({ description: 'The challenge from POST /auth/login', minLength: 1, maxLength: 128 }),
  code: Type.String({ description: 'Current 6-digit code of the authenticator app', minLength: 1, maxLength: 32 }),
});

const tokenPairProperties: Record<string, JsonSchema> = {
  accessToken: str(`JWT (${LIMITS.accessToken.algorithm}) for Authorization: Bearer; lives ${LIMITS.accessToken.ttlSeconds} s`),
  tokenType: { type: 'string', const: 'Bearer' },
  expiresIn: { type: 'integer', description: 'Seconds the access token stays valid' },
  refreshToken: str('Single-use refresh token for POST /auth/refresh (rotated on every use; reusing an old one revokes the session)'),
};

export const TokenPairSchema = obj(tokenPairProperties);

export const SignedInSchema = obj({
  ...tokenPairProperties,
  deviceToken: str(
    `Device token (256-bit random, stored only as its SHA-256): keep it on this client and send it as \`deviceToken\` to POST /auth/login. ` +
      `Trusted ${deviceDays} days; each sign-in returns a new one and retires the one presented; at most ${LIMITS.deviceToken.maxPerUser} per user ` +
      '(a newer device retires the oldest); a reset of the second factor retires them all',
  ),
});

export const RefreshBody = closed({ refreshToken: Type.String({ description: 'The latest refresh token', minLength: 1, maxLength: 256 }) });

const CompanyRef = obj({ id: str('Company id'), name: str('Company name') });

export const TenantsResponse = obj({
  items: {
    type: 'array',
    description: 'Only the companies this user belongs to',
    items: obj({ id: str('Company id (the tenant)'), name: str('Company name'), roles: strings('Roles of the user there') }),
  },
});

export const TenantIdParams = closed({ id: Type.String({ description: 'Company id', minLength: 1, maxLength: 64 }) });

export const SelectionResponse = obj({
  company: CompanyRef,
  roles: strings('Roles of the user in this company'),
  permissions: strings('Permissions the roles grant in this company'),
});

export const MeResponse = obj({
  id: str('User id'),
  email: str('E-mail'),
  name: str('Display name'),
  platformAdmin: { type: 'boolean' },
  totpEnrolled: { type: 'boolean', description: 'Whether the second factor is confirmed' },
  session: obj({
    id: str('Session id'),
    startedAt: str('When the session started', { format: 'date-time' }),
    expiresAt: str(`Absolute end of the session (${LIMITS.session.absoluteSeconds / 3600} h after sign-in)`, { format: 'date-time' }),
  }),
  company: {
    description: 'The company selected on this session, or null',
    oneOf: [
      { type: 'null' },
      obj({ id: str('Company id'), name: str('Company name'), roles: strings('Roles'), permissions: strings('Permissions') }),
    ],
  },
});
