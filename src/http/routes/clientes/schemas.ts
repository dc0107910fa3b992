// JSON Schemas of /clientes: what clients send and what they read, declared once with TypeBox.
import Type from 'typebox';
import { PAYER_TYPES, CLIENT_STATUSES, RATE_INCLUDES, WITHOUT_AUTHORIZATION } from '../../../commands/clientes/clientEvents.js';
import { AUTHORIZATION_STATUSES, MAX_SESSIONS_AUTHORIZED } from '../../../commands/clientes/authorizationEvents.js';
import {
  closed,
  DateSchema,
  DateTimeSchema,
  IdSchema,
  nullable,
  ReasonSchema,
  StringOrNull,
  taxIdSchema,
  text,
} from '../shared/fieldSchemas.js';
import { clearable, correctionBody } from '../shared/correctionBody.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('clientes', 'Clientes');

const Email = Type.String({ format: 'email', maxLength: 254 });
export const SessionIdSchema = text(64, 'Dialysis session id (the daily record)');

const TaxId = taxIdSchema('Checked with its check digit (the Empresas validator); stored canonical', {
  description: 'Unique within the company (409 duplicate-tax-id)',
});
const Address = closed({
  line1: text(200),
  city: text(100),
  region: Type.Optional(text(100)),
  postalCode: Type.Optional(text(20)),
});
const Contact = closed({ name: text(200), role: Type.Optional(text(100)), phone: Type.Optional(text(40)), email: Type.Optional(Email) });

const clientFields = {
  legalName: text(200),
  tradeName: text(200),
  payerType: Type.Enum(PAYER_TYPES),
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 (PE, MX, CO, CL, AR ...)' }),
  taxId: TaxId,
  fiscalAddress: Address,
  contacts: Type.Array(Contact, { maxItems: 20 }),
};
const BillingEmail = { ...Email, description: 'Where invoices and monthly reports go' };

export const RegisterBody = closed({ ...clientFields, billingEmail: Type.Optional(BillingEmail) });
export const CorrectBody = correctionBody({ ...clientFields, billingEmail: clearable(Email) });

const Rate = closed({
  amount: Type.String({
    pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,4})?$',
    description: 'Decimal string, e.g. "350.00" (no more decimals than the currency has)',
  }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217, e.g. PEN' }),
  taxIncluded: Type.Boolean(),
});
const contractFields = {
  number: text(60),
  serviceCode: text(20, 'Procedure or service code, e.g. 90935 (CPMS hemodialysis session)'),
  validFrom: DateSchema,
  validTo: Type.Optional({ ...DateSchema, description: 'Last day in force; absent: open-ended' }),
  rate: Rate,
  includes: Type.Array(Type.Enum(RATE_INCLUDES), {
    uniqueItems: true,
    maxItems: RATE_INCLUDES.length,
    description: 'What the rate includes',
  }),
  authorizationRequired: Type.Boolean(),
  withoutAuthorization: Type.Enum(WITHOUT_AUTHORIZATION, {
    description: 'A session started without a valid authorization: refused (block) or flagged',
  }),
  sessionsPerMonthCap: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 31, description: 'Sessions per patient per month the payer pays' }),
  ),
  paymentTermsDays: Type.Integer({ minimum: 0, maximum: 365 }),
};
export const ContractBody = closed(contractFields);
export const TerminateBody = closed({
  endsOn: { ...DateSchema, description: 'Last day in force (before the contract would end)' },
  reason: ReasonSchema,
});

export const ContractIdParams = closed({ id: IdSchema, contractId: IdSchema });
export const AuthIdParams = closed({ id: IdSchema, authId: IdSchema });

// Views: the listed members at least (documented), never fewer.
export const ContractView = Type.Object({
  ...contractFields,
  authorizationRequired: Type.Optional(contractFields.authorizationRequired),
  withoutAuthorization: Type.Optional(contractFields.withoutAuthorization),
  paymentTermsDays: Type.Optional(contractFields.paymentTermsDays),
  contractId: IdSchema,
  clientId: IdSchema,
  terminatedOn: Type.Optional(DateSchema),
  terminationReason: Type.Optional(Type.String()),
  lastDay: Type.Union([DateSchema, Type.Null()], { description: 'Last day in force (null: open-ended)' }),
  status: Type.Enum(['signed', 'terminated']),
});
export const RateView = Type.Object({
  date: DateSchema,
  serviceCode: StringOrNull,
  contract: nullable(ContractView),
});

export const ClientView = Type.Object({
  ...clientFields,
  billingEmail: Type.Optional(BillingEmail),
  id: IdSchema,
  revision: Type.Integer({ minimum: 0 }),
  status: Type.Enum(CLIENT_STATUSES),
  statusReason: Type.Optional(StringOrNull),
  contracts: Type.Array(ContractView),
  createdAt: Type.Optional(DateTimeSchema),
  createdBy: Type.Optional(Type.String()),
  updatedAt: Type.Optional(DateTimeSchema),
  updatedBy: Type.Optional(Type.String()),
});

export const IssueBody = closed({
  patientId: { ...IdSchema, description: 'A patient of the company (422 otherwise)' },
  code: text(60, 'Authorization (derivation) code given by the payer: unique per client'),
  validFrom: DateSchema,
  validTo: DateSchema,
  sessionsAuthorized: Type.Integer({ minimum: 1, maximum: MAX_SESSIONS_AUTHORIZED }),
});
export const ConsumeBody = closed({ sessionId: SessionIdSchema, date: { ...DateSchema, description: 'Date of the session' } });
export const ReleaseBody = closed({ sessionId: SessionIdSchema, reason: ReasonSchema });

const SessionUnit = closed({ sessionId: Type.String(), date: DateSchema });
export const AuthorizationView = Type.Object({
  id: IdSchema,
  revision: Type.Integer({ minimum: 0 }),
  clientId: IdSchema,
  patientId: IdSchema,
  code: Type.String(),
  validFrom: DateSchema,
  validTo: DateSchema,
  sessionsAuthorized: Type.Integer(),
  used: Type.Integer(),
  remaining: Type.Integer({ description: 'Units neither consumed nor reserved by a running session' }),
  reserved: Type.Optional(Type.Integer({ description: 'Units held by sessions started and not yet ended (issue 21)' })),
  status: Type.Enum(AUTHORIZATION_STATUSES, { description: "expired: past the period's end on the company's today" }),
  consumptions: Type.Array(SessionUnit),
  reservations: Type.Optional(Type.Array(SessionUnit)),
  voided: Type.Optional(Type.Boolean()),
  voidReason: Type.Optional(StringOrNull),
});
