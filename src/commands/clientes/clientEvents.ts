// Payers of a company (stream `<tenant>.client-<id>`) with their contracts in the same stream: the rule "one contract per
// client and service at a time" then needs one stream only. Who/when/why travel in the event metadata.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the client streams: written once, here (the decider, the writes and the read side take it). */
export const CLIENT_CATEGORY = 'client';
export const clientStream = (tenantId: string, clientId: string): string => streamName(tenantId, CLIENT_CATEGORY, clientId);

export const PAYER_TYPES = ['social-security', 'public-insurer', 'private-insurer', 'employer', 'self-pay'] as const;
export type PayerType = (typeof PAYER_TYPES)[number];
export const CLIENT_STATUSES = ['active', 'inactive'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

export const RATE_INCLUDES = ['dialyzer', 'bloodlines', 'needles', 'epo-iron', 'medications', 'labs', 'transport', 'meals'] as const;
export type RateInclude = (typeof RATE_INCLUDES)[number];
export const WITHOUT_AUTHORIZATION = ['block', 'flag'] as const;
export type WithoutAuthorization = (typeof WITHOUT_AUTHORIZATION)[number];

export type ClientContact = {
  name: string;
  role?: string;
  phone?: string;
  email?: string;
};
export type FiscalAddress = {
  line1: string;
  city: string;
  region?: string;
  postalCode?: string;
};

export type ClientFields = {
  legalName: string;
  tradeName: string;
  payerType: PayerType;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** Type of the country (RUC, RFC, NIT, RUT, CUIT, OTHER) and the number in canonical form. */
  taxId: { type: string; number: string };
  fiscalAddress: FiscalAddress;
  contacts: ClientContact[];
  billingEmail?: string;
};
export type ClientPatch = Partial<Omit<ClientFields, 'billingEmail'>> & { billingEmail?: string | null };
export const CORRECTABLE_CLIENT_FIELDS = [
  'legalName',
  'tradeName',
  'payerType',
  'country',
  'taxId',
  'fiscalAddress',
  'contacts',
  'billingEmail',
] as const;

/**
 * The rate of one session. `amount` is a decimal string ("350.00"): exact (no binary float), and currencies differ in
 * minor units (PEN 2, CLP 0), which integer cents would hide; it never carries more decimals than its currency has.
 */
export type SessionRate = {
  amount: string;
  /** ISO 4217. */
  currency: string;
  taxIncluded: boolean;
};

export type ContractTerms = {
  number: string;
  /** Procedure or service code of the payer's catalogue, e.g. CPMS 90935 (hemodialysis session). */
  serviceCode: string;
  validFrom: string;
  /** Last day in force; absent: open-ended. */
  validTo?: string;
  rate: SessionRate;
  includes: RateInclude[];
  authorizationRequired: boolean;
  /** What a session started without a valid authorization gets: refused (block) or recorded with a flag. */
  withoutAuthorization: WithoutAuthorization;
  sessionsPerMonthCap?: number;
  paymentTermsDays: number;
};
export type Contract = ContractTerms & {
  contractId: string;
  /** Last day in force after an early termination. */
  terminatedOn?: string;
  terminationReason?: string;
};

export type ClientCommand =
  | CommandEnvelope<'RegisterClient', ClientFields>
  | CommandEnvelope<'CorrectClient', ClientPatch>
  | CommandEnvelope<'DeactivateClient', { reason: string }>
  | CommandEnvelope<'ReactivateClient', { reason: string }>
  | CommandEnvelope<'SignContract', ContractTerms & { contractId: string }>
  | CommandEnvelope<'TerminateContract', { contractId: string; endsOn: string; reason: string }>;

export type ClientEvent =
  | DecidedEvent<'ClientRegistered', ClientFields & { clientId: string }>
  | DecidedEvent<'ClientCorrected', { changes: ClientPatch; previous: ClientPatch }>
  | DecidedEvent<'ClientDeactivated', { reason: string }>
  | DecidedEvent<'ClientReactivated', { reason: string }>
  | DecidedEvent<'ContractSigned', ContractTerms & { contractId: string }>
  | DecidedEvent<'ContractTerminated', { contractId: string; endsOn: string; reason: string }>;

export const CLIENT_EVENT_TYPES: readonly ClientEvent['type'][] = [
  'ClientRegistered',
  'ClientCorrected',
  'ClientDeactivated',
  'ClientReactivated',
  'ContractSigned',
  'ContractTerminated',
];

/** The tax id as the company-wide guard compares it: country and canonical number. */
export const taxIdKey = (fields: Pick<ClientFields, 'country' | 'taxId'>): string => `${fields.country}:${fields.taxId.number}`;
