// JSON Schemas of /clientes: what clients send and what they read.
import type { JsonSchema } from '../../routeTypes.js';
import { PAYER_TYPES, CLIENT_STATUSES, RATE_INCLUDES, WITHOUT_AUTHORIZATION } from '../../../commands/clientes/clientEvents.js';
import { AUTHORIZATION_STATUSES, MAX_SESSIONS_AUTHORIZED } from '../../../commands/clientes/authorizationEvents.js';
import { DateSchema, DateTimeSchema, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';

export const TAG = 'Clientes';
export const READ = 'clientes:read';
export const WRITE = 'clientes:write';

export const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
/** A view: the listed members at least (documented), never fewer. */
const view = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({ type: 'object', required, properties });
const Email: JsonSchema = { type: 'string', format: 'email', maxLength: 254 };
export const SessionIdSchema = text(64, 'Dialysis session id (the daily record)');

const TaxId = obj({
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
    description: 'Checked with its check digit (the Empresas validator); stored canonical',
  },
});
const Address = obj({ line1: text(200), city: text(100), region: text(100), postalCode: text(20) }, ['line1', 'city']);
const Contact = obj({ name: text(200), role: text(100), phone: text(40), email: Email }, ['name']);

const clientFields: Record<string, JsonSchema> = {
  legalName: text(200),
  tradeName: text(200),
  payerType: { enum: [...PAYER_TYPES] },
  country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 (PE, MX, CO, CL, AR ...)' },
  taxId: { ...TaxId, description: 'Unique within the company (409 duplicate-tax-id)' },
  fiscalAddress: Address,
  contacts: { type: 'array', maxItems: 20, items: Contact },
  billingEmail: { ...Email, description: 'Where invoices and monthly reports go' },
};
export const RegisterBody = obj(clientFields, ['legalName', 'tradeName', 'payerType', 'country', 'taxId', 'fiscalAddress', 'contacts']);
export const CorrectBody: JsonSchema = {
  ...obj({ ...clientFields, billingEmail: { anyOf: [Email, { type: 'null' }], description: 'null clears it' }, reason: ReasonSchema }, [
    'reason',
  ]),
  minProperties: 2,
};
export const ReasonBody = obj({ reason: ReasonSchema });

const Rate = obj({
  amount: {
    type: 'string',
    pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,4})?$',
    description: 'Decimal string, e.g. "350.00" (no more decimals than the currency has)',
  },
  currency: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217, e.g. PEN' },
  taxIncluded: { type: 'boolean' },
});
const contractFields: Record<string, JsonSchema> = {
  number: text(60),
  serviceCode: text(20, 'Procedure or service code, e.g. 90935 (CPMS hemodialysis session)'),
  validFrom: DateSchema,
  validTo: { ...DateSchema, description: 'Last day in force; absent: open-ended' },
  rate: Rate,
  includes: {
    type: 'array',
    uniqueItems: true,
    maxItems: RATE_INCLUDES.length,
    items: { enum: [...RATE_INCLUDES] },
    description: 'What the rate includes',
  },
  authorizationRequired: { type: 'boolean' },
  withoutAuthorization: {
    enum: [...WITHOUT_AUTHORIZATION],
    description: 'A session started without a valid authorization: refused (block) or flagged',
  },
  sessionsPerMonthCap: { type: 'integer', minimum: 1, maximum: 31, description: 'Sessions per patient per month the payer pays' },
  paymentTermsDays: { type: 'integer', minimum: 0, maximum: 365 },
};
export const ContractBody = obj(contractFields, [
  'number',
  'serviceCode',
  'validFrom',
  'rate',
  'includes',
  'authorizationRequired',
  'withoutAuthorization',
  'paymentTermsDays',
]);
export const TerminateBody = obj({
  endsOn: { ...DateSchema, description: 'Last day in force (before the contract would end)' },
  reason: ReasonSchema,
});

export const ContractView = view(
  {
    ...contractFields,
    contractId: IdSchema,
    clientId: IdSchema,
    terminatedOn: DateSchema,
    terminationReason: { type: 'string' },
    lastDay: { anyOf: [DateSchema, { type: 'null' }], description: 'Last day in force (null: open-ended)' },
    status: { enum: ['signed', 'terminated'] },
  },
  ['contractId', 'clientId', 'number', 'serviceCode', 'validFrom', 'rate', 'includes', 'lastDay', 'status'],
);
export const RateView = view(
  { date: DateSchema, serviceCode: { type: ['string', 'null'] }, contract: { anyOf: [ContractView, { type: 'null' }] } },
  ['date', 'serviceCode', 'contract'],
);

export const ClientView = view(
  {
    ...clientFields,
    id: IdSchema,
    revision: { type: 'integer', minimum: 0 },
    status: { enum: [...CLIENT_STATUSES] },
    statusReason: { type: ['string', 'null'] },
    contracts: { type: 'array', items: ContractView },
    createdAt: DateTimeSchema,
    createdBy: { type: 'string' },
    updatedAt: DateTimeSchema,
    updatedBy: { type: 'string' },
  },
  ['id', 'revision', 'legalName', 'tradeName', 'payerType', 'country', 'taxId', 'fiscalAddress', 'contacts', 'status', 'contracts'],
);

export const IssueBody = obj({
  patientId: { ...IdSchema, description: 'A patient of the company (422 otherwise)' },
  code: text(60, 'Authorization (derivation) code given by the payer: unique per client'),
  validFrom: DateSchema,
  validTo: DateSchema,
  sessionsAuthorized: { type: 'integer', minimum: 1, maximum: MAX_SESSIONS_AUTHORIZED },
});
export const ConsumeBody = obj({ sessionId: SessionIdSchema, date: { ...DateSchema, description: 'Date of the session' } });
export const ReleaseBody = obj({ sessionId: SessionIdSchema, reason: ReasonSchema });

export const AuthorizationView = view(
  {
    id: IdSchema,
    revision: { type: 'integer', minimum: 0 },
    clientId: IdSchema,
    patientId: IdSchema,
    code: { type: 'string' },
    validFrom: DateSchema,
    validTo: DateSchema,
    sessionsAuthorized: { type: 'integer' },
    used: { type: 'integer' },
    remaining: { type: 'integer', description: 'Units neither consumed nor reserved by a running session' },
    reserved: { type: 'integer', description: 'Units held by sessions started and not yet ended (issue 21)' },
    status: { enum: [...AUTHORIZATION_STATUSES], description: "expired: past the period's end on the company's today" },
    consumptions: { type: 'array', items: obj({ sessionId: { type: 'string' }, date: DateSchema }) },
    reservations: { type: 'array', items: obj({ sessionId: { type: 'string' }, date: DateSchema }) },
    voided: { type: 'boolean' },
    voidReason: { type: ['string', 'null'] },
  },
  [
    'id',
    'revision',
    'clientId',
    'patientId',
    'code',
    'validFrom',
    'validTo',
    'sessionsAuthorized',
    'used',
    'remaining',
    'status',
    'consumptions',
  ],
);
