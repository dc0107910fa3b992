// Field rules of a payer and of a contract: the tax id checked by the same validator as Empresas (check digit), the
// currency and its minor units. Every broken field named in one 422; what is kept is trimmed and canonical.
import { FieldChecks, isRealDate } from '../shared/fieldChecks.js';
import { validateTaxId } from '../empresas/taxIds.js';
import type { ClientFields, ContractTerms } from './clientEvents.js';
import { minorUnitsOf, serviceKey } from './shared/contractRules.js';

const trimmedOrUndefined = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/** The payer as stored, or a 422 naming every broken field. */
export function checkedClient(f: ClientFields): ClientFields {
  const checks = new FieldChecks();
  for (const field of ['legalName', 'tradeName'] as const) checks.check(f[field].trim().length > 0, field, 'must not be blank');
  const country = f.country.trim().toUpperCase();
  const tax = validateTaxId(country, f.taxId.type, f.taxId.number);
  if (!tax.ok) {
    const field = tax.reason === 'invalid-country' ? 'country' : tax.reason === 'unsupported-type' ? 'taxId/type' : 'taxId/number';
    checks.check(false, field, tax.reason);
  }
  checks.check(f.fiscalAddress.line1.trim().length > 0, 'fiscalAddress/line1', 'must not be blank');
  checks.check(f.fiscalAddress.city.trim().length > 0, 'fiscalAddress/city', 'must not be blank');
  f.contacts.forEach((c, i) => checks.check(c.name.trim().length > 0, `contacts/${i}/name`, 'must not be blank'));
  checks.throwIfAny();
  const region = trimmedOrUndefined(f.fiscalAddress.region);
  const postalCode = trimmedOrUndefined(f.fiscalAddress.postalCode);
  const billingEmail = trimmedOrUndefined(f.billingEmail)?.toLowerCase();
  return {
    legalName: f.legalName.trim(),
    tradeName: f.tradeName.trim(),
    payerType: f.payerType,
    country,
    taxId: tax.ok ? { type: tax.type, number: tax.normalized } : f.taxId,
    fiscalAddress: {
      line1: f.fiscalAddress.line1.trim(),
      city: f.fiscalAddress.city.trim(),
      ...(region ? { region } : {}),
      ...(postalCode ? { postalCode } : {}),
    },
    contacts: f.contacts.map((c) => {
      const role = trimmedOrUndefined(c.role);
      const phone = trimmedOrUndefined(c.phone);
      const email = trimmedOrUndefined(c.email)?.toLowerCase();
      return { name: c.name.trim(), ...(role ? { role } : {}), ...(phone ? { phone } : {}), ...(email ? { email } : {}) };
    }),
    ...(billingEmail ? { billingEmail } : {}),
  };
}

/** The contract terms as stored, or a 422 naming every broken field. */
export function checkedContractTerms(t: ContractTerms): ContractTerms {
  const checks = new FieldChecks();
  checks.check(t.number.trim().length > 0, 'number', 'must not be blank');
  checks.check(t.serviceCode.trim().length > 0, 'serviceCode', 'must not be blank');
  checks.check(isRealDate(t.validFrom), 'validFrom', 'is not a real date');
  if (t.validTo !== undefined) {
    checks.check(isRealDate(t.validTo), 'validTo', 'is not a real date');
    checks.check(t.validTo >= t.validFrom, 'validTo', 'is before validFrom');
  }
  const currency = t.rate.currency.toUpperCase();
  const minorUnits = minorUnitsOf(currency);
  checks.check(minorUnits !== null, 'rate/currency', 'is not an ISO 4217 currency code');
  const decimals = t.rate.amount.split('.')[1]?.length ?? 0;
  checks.check(minorUnits === null || decimals <= minorUnits, 'rate/amount', `has more decimals than ${currency} has (${minorUnits})`);
  checks.throwIfAny();
  return {
    ...t,
    number: t.number.trim(),
    serviceCode: serviceKey(t.serviceCode),
    rate: { ...t.rate, currency },
    includes: [...new Set(t.includes)],
  };
}
