// Shapes of the company routes: profile, registration with its first admin, status, modules; declared once with TypeBox.
import Type, { type Static } from 'typebox';
import { pageOf } from '../../commonSchemas.js';
import { UUID_PATTERN } from '../shared/adminSupport.js';
import { freeText } from '../../commonSchemas.js';
import { stringOrNull, taxIdSchema } from '../shared/fieldSchemas.js';
import { OPTIONAL_MODULES } from '../../../commands/platform/company/events.js';
import { ActivationSchema } from '../usuarios/schemas.js';
import type { Activation } from '../../../commands/platform/invitationWrites.js';

const name = (max: number) => Type.String({ minLength: 1, maxLength: max });
const strict = { additionalProperties: false } as const;
const reasonSchema = freeText(500, 'Why: recorded with the event and shown in the history');

export const AddressSchema = Type.Object(
  {
    line1: name(200),
    city: name(100),
    region: Type.Optional(name(100)),
    postalCode: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  },
  strict,
);
export const TaxIdSchema = taxIdSchema('Checked with its check digit where the country has one; stored in canonical form');
const profileProperties = {
  legalName: name(200),
  tradeName: name(200),
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 (PE, MX, CO, CL, AR ...)' }),
  taxId: TaxIdSchema,
  address: AddressSchema,
  timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. America/Lima' }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217, e.g. PEN' }),
};
export const ProfileSchema = Type.Object(profileProperties, strict);
const modulesOptions = { uniqueItems: true, maxItems: 20 };
export const ModulesSchema = Type.Array(Type.Enum(OPTIONAL_MODULES, { type: 'string' }), modulesOptions);

const UserAdmin = Type.Object({ userId: Type.String({ pattern: UUID_PATTERN }) }, strict);
const InvitedAdmin = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), name: name(200) }, strict);
/** oneOf, as before (its 422 says so): typed from its two shapes. */
const AdminSchema = Type.Unsafe<Static<typeof UserAdmin> | Static<typeof InvitedAdmin>>({
  description: 'A company admin: an existing account ({userId}) or a new person invited by e-mail ({email, name})',
  oneOf: [UserAdmin, InvitedAdmin],
});

export const RegisterCompanyBody = Type.Object(
  {
    ...profileProperties,
    modules: Type.Optional(
      Type.Array(Type.Enum(OPTIONAL_MODULES, { type: 'string' }), {
        ...modulesOptions,
        description: 'Optional modules switched on (default: all)',
      }),
    ),
    admin: AdminSchema,
    reason: Type.Optional(reasonSchema),
  },
  strict,
);

export const CorrectCompanyBody = Type.Object(
  { ...Type.Partial(ProfileSchema).properties, reason: reasonSchema },
  { ...strict, minProperties: 2 },
);

const str = (description: string) => Type.String({ description });
export const CompanySchema = Type.Object(
  {
    id: str('Company id (the tenant id)'),
    name: str('Trade name'),
    status: Type.Enum(['active', 'suspended'], { type: 'string' }),
    suspendedAt: stringOrNull(),
    suspensionReason: stringOrNull(),
    profile: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      description: 'Legal and trade name, country, tax id, address, time zone, currency (partial for companies registered by name only)',
    }),
    modules: Type.Array(Type.String()),
    registeredAt: str('When the company was registered'),
  },
  strict,
);
export const CompanyPage = pageOf(CompanySchema);
export const AppointedSchema = Type.Object(
  { userId: str('The admin'), accountCreated: Type.Boolean(), activation: Type.Unsafe<Activation | null>(ActivationSchema) },
  strict,
);
export const RegisteredSchema = Type.Object({ company: CompanySchema, admin: AppointedSchema }, strict);
export const AppointAdminBody = Type.Object({ admin: AdminSchema, reason: reasonSchema }, strict);
export const ReasonBody = Type.Object({ reason: reasonSchema }, strict);
export const ModulesBody = Type.Object({ modules: ModulesSchema, reason: reasonSchema }, strict);
export const CompanyIdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' }) }, strict);
