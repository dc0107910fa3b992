// Shapes of the company routes: profile, registration with its first admin, status, modules.
import type { JsonSchema } from '../../routeTypes.js';
import { pageOf } from '../../commonSchemas.js';
import { obj, reasonSchema, str, UUID } from '../shared/adminSupport.js';
import { OPTIONAL_MODULES } from '../../../commands/platform/company/events.js';
import { ActivationSchema } from '../usuarios/schemas.js';

const name = (max: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });

export const AddressSchema = obj(
  { line1: name(200), city: name(100), region: name(100), postalCode: { type: 'string', minLength: 1, maxLength: 20 } },
  ['line1', 'city'],
);
export const TaxIdSchema = obj({
  type: {
    type: 'string',
    minLength: 2,
    maxLength: 10,
    description: 'RUC (PE), RFC (MX), NIT (CO), RUT (CL), CUIT (AR); other countries: OTHER',
  },
  number: {
    type: 'string',
    minLength: 3,
    maxLength: 30,
    description: 'Checked with its check digit where the country has one; stored in canonical form',
  },
});
const profileProperties = {
  legalName: name(200),
  tradeName: name(200),
  country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 (PE, MX, CO, CL, AR ...)' },
  taxId: TaxIdSchema,
  address: AddressSchema,
  timeZone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. America/Lima' },
  currency: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217, e.g. PEN' },
};
export const ProfileSchema = obj(profileProperties);
export const ModulesSchema: JsonSchema = {
  type: 'array',
  uniqueItems: true,
  maxItems: 20,
  items: { type: 'string', enum: [...OPTIONAL_MODULES] },
};

const AdminSchema: JsonSchema = {
  description: 'A company admin: an existing account ({userId}) or a new person invited by e-mail ({email, name})',
  oneOf: [obj({ userId: UUID }), obj({ email: { type: 'string', format: 'email', maxLength: 254 }, name: name(200) })],
};

export const RegisterCompanyBody = obj(
  {
    ...profileProperties,
    modules: { ...ModulesSchema, description: 'Optional modules switched on (default: all)' },
    admin: AdminSchema,
  },
  [...Object.keys(profileProperties), 'admin'],
);

export const CorrectCompanyBody = { ...obj({ ...profileProperties, reason: reasonSchema }, ['reason']), minProperties: 2 };

export const CompanySchema = obj({
  id: str('Company id (the tenant id)'),
  name: str('Trade name'),
  status: { type: 'string', enum: ['active', 'suspended'] },
  suspendedAt: { type: ['string', 'null'] },
  suspensionReason: { type: ['string', 'null'] },
  profile: {
    type: 'object',
    description: 'Legal and trade name, country, tax id, address, time zone, currency (partial for companies registered by name only)',
  },
  modules: { type: 'array', items: { type: 'string' } },
  registeredAt: str('When the company was registered'),
});
export const CompanyPage = pageOf(CompanySchema);
export const AppointedSchema = obj({ userId: str('The admin'), accountCreated: { type: 'boolean' }, activation: ActivationSchema });
export const RegisteredSchema = obj({ company: CompanySchema, admin: AppointedSchema });
export const AppointAdminBody = obj({ admin: AdminSchema, reason: reasonSchema });
export const ReasonBody = obj({ reason: reasonSchema });
export const ModulesBody = obj({ modules: ModulesSchema, reason: reasonSchema });
export const CompanyIdParams = obj({ id: { type: 'string', pattern: '^[A-Za-z0-9]{1,64}$' } });
