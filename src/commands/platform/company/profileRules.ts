// Rules on a company's profile a schema cannot state: a tax id valid for its country (check digit), a real IANA
// time zone and ISO 4217 currency. Every broken field is named in one 422.
import { DomainError } from '../../decider.js';
import { validateTaxId } from '../../empresas/taxIds.js';
import type { CompanyProfile } from './events.js';

interface FieldProblem {
  field: string;
  message: string;
}

const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The profile (or the part of it given) as stored (tax id in its canonical form, trimmed names), or a 422 naming every broken field. */
export function checkedProfile<P extends Partial<CompanyProfile>>(profile: P): P {
  const problems: FieldProblem[] = [];
  const out: Partial<CompanyProfile> = { ...profile };
  for (const field of ['legalName', 'tradeName'] as const) {
    if (profile[field] === undefined) continue;
    out[field] = profile[field].trim();
    if (!out[field]) problems.push({ field, message: 'is required' });
  }
  if (profile.country !== undefined) out.country = profile.country.toUpperCase();
  if (profile.taxId !== undefined) {
    const tax = validateTaxId(out.country ?? '', profile.taxId.type, profile.taxId.number);
    if (tax.ok) out.taxId = { type: tax.type, number: tax.normalized };
    else problems.push({ field: 'taxId/number', message: tax.reason });
  }
  if (profile.timeZone !== undefined && !isTimeZone(profile.timeZone))
    problems.push({ field: 'timeZone', message: 'is not an IANA time zone (e.g. America/Lima)' });
  if (profile.currency !== undefined) {
    out.currency = profile.currency.toUpperCase();
    if (!knownCurrencies.has(out.currency)) problems.push({ field: 'currency', message: 'is not an ISO 4217 currency code' });
  }
  if (problems.length > 0) {
    throw new DomainError('validation-failed', `Invalid data: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, 422, {
      errors: problems,
    });
  }
  return out as P;
}
