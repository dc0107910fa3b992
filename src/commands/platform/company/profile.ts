// What a company is on paper (legal identity, address, locale) and which optional modules it uses.

export interface CompanyAddress {
  line1: string;
  city: string;
  region?: string;
  postalCode?: string;
}

export interface CompanyProfile {
  legalName: string;
  tradeName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  taxId: { type: string; number: string };
  address: CompanyAddress;
  /** IANA time zone: the company's calendar days (schedules, licence expiry) are counted in it. */
  timeZone: string;
  /** ISO 4217. */
  currency: string;
}

export const CORRECTABLE_PROFILE_FIELDS = ['legalName', 'tradeName', 'country', 'taxId', 'address', 'timeZone', 'currency'] as const;

/**
 * Groups a company may switch off (their data stays; their routes answer 403 module-disabled). The others
 * (sign-in, administration, patients, system) are the service itself and are always on.
 */
export const OPTIONAL_MODULES = [
  'Dialisis',
  'Monitores',
  'FiltrosDialisis',
  'LineasArterial',
  'LineasVenosa',
  'Productos',
  'Clientes',
  'Widgets',
  'Generador',
] as const;

export type OptionalModule = (typeof OPTIONAL_MODULES)[number];

export const isOptionalModule = (tag: string): tag is OptionalModule => (OPTIONAL_MODULES as readonly string[]).includes(tag);
