// Shapes of the Usuarios routes: the people of a company, invitations, roles, API clients.
import Type from 'typebox';
import { closed } from '../shared/fieldSchemas.js';
import { obj, reasonSchema, ROLE_CODE, str, UUID } from '../shared/adminSupport.js';
import { pageOf } from '../../commonSchemas.js';

export const RolesSchema = Type.Array(ROLE_CODE, { minItems: 1, maxItems: 20, uniqueItems: true });

export const CompanyUserSchema = obj({
  id: str('User id'),
  email: str('E-mail (the sign-in name)'),
  name: str('Name'),
  roles: { type: 'array', items: { type: 'string' } },
  membership: {
    type: 'string',
    enum: ['active', 'pending', 'revoked'],
    description: 'pending: invited, not accepted yet (grants nothing); until accepted the person shows only what this company entered',
  },
  memberSince: str('When the membership was granted (accepted), or the invitation sent while pending'),
  account: {
    type: 'string',
    enum: ['invited', 'active', 'deactivated'],
    description: 'invited: no password chosen yet, or an invitation not accepted yet',
  },
  totpEnrolled: { type: 'boolean' },
  lastSignInAt: { type: ['string', 'null'], description: 'Last completed sign-in (second factor accepted)' },
});
export const CompanyUserPage = pageOf(CompanyUserSchema);

export const ActivationSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['expiresAt'],
  properties: {
    token: str(
      "One-time token, shown only in this answer: it activates the account this invitation created (POST /auth/activate with a password), or the account's holder accepts the membership with it signed in (POST /auth/invitations/{companyId}/accept). " +
        "Absent from a company's answers (POST /usuarios, POST /usuarios/{id}/activacion) when the service sends e-mail (SMTP_URL): then only the invited address receives it",
    ),
    expiresAt: str('When the token stops working'),
  },
  description: 'Null when the platform appoints an existing account by its id (a membership at once)',
} as const;

export const InvitationSchema = obj({
  user: CompanyUserSchema,
  activation: ActivationSchema,
  emailed: {
    type: 'boolean',
    description:
      'The token was e-mailed to the address (SMTP_URL configured and the mail server accepted it; when false with SMTP_URL, re-issue it)',
  },
});

const password = Type.String({ minLength: 1, maxLength: 1024 });

export const InviteBody = closed({
  email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  roles: RolesSchema,
});
export const RolesBody = closed({ roles: RolesSchema, reason: reasonSchema });
export const ReasonBody = closed({ reason: reasonSchema });
export const UserIdParams = closed({ id: UUID });

export const ActivateBody = closed({ token: Type.String({ minLength: 1, maxLength: 200 }), password });
export const ActivatedSchema = obj({ userId: str('User id'), email: str('Sign in with this e-mail and the new password') });
export const ChangePasswordBody = closed({
  currentPassword: password,
  code: Type.String({ minLength: 1, maxLength: 16, description: 'A current code of your authenticator' }),
  newPassword: password,
});
