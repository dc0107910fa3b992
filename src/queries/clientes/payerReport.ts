// The monthly payer report (issue 11 item 7): per client and month, each covered patient's treated sessions with date,
// dry weight, pre and post weight, treatment hours (decimal) and UF litres (the format public payers ask for), the
// authorization each consumed, and the amount due at the contract rate in force on each session's date. Sessions are
// billed by the rule units are consumed by (paidByPayer); a row without the authorization its contract requires, or
// not yet signed, is flagged and kept out of the amount due (issue 21 item 18).
import { csvTextInTurns } from '../csvChunks.js';
import type { TenantScope } from '../tenantScope.js';
import { patients } from '../pacientes/readModel.js';
import { sessionsBetween, TREATED_STATUSES } from '../dialisis/sessionRange.js';
import { monthEnd } from '../dialisis/adequacy.js';
import { sessionClinical } from '../../projections/dialisis/sessionClinical.js';
import { DEFAULT_CLINICAL_POLICY } from '../../commands/dialisis/shared/clinicalPolicy.js';
import { isSigned, paidByPayer } from '../../commands/clientes/shared/payerBilling.js';
import { contractInForceOn, amountTimes } from '../../commands/clientes/shared/contractRules.js';
import { authorizations, clientModel } from './clients.js';

export interface PayerReportRow {
  patientId: string;
  patientName: string;
  document: string;
  sessionId: string;
  date: string;
  status: string;
  dryWeightKg: number | null;
  preWeightKg: number | null;
  postWeightKg: number | null;
  treatmentHours: number | null;
  ufLitres: number | null;
  authorizationCode: string | null;
  contractNumber: string | null;
  amount: string | null;
  currency: string | null;
  /** Why the row is not yet due: no-authorization (the contract requires one), unsigned (the record is not signed). */
  flags: PayerReportFlag[];
}

export type PayerReportFlag = 'no-authorization' | 'unsigned';

/** Per currency: how many rows and their amount, exact. */
function totalsOf(rows: readonly PayerReportRow[]): { currency: string; sessions: number; amount: string }[] {
  const byCurrency = new Map<string, string[]>();
  for (const r of rows) if (r.amount && r.currency) byCurrency.set(r.currency, [...(byCurrency.get(r.currency) ?? []), r.amount]);
  return [...byCurrency.entries()].map(([currency, amounts]) => ({ currency, sessions: amounts.length, amount: sumAmounts(amounts) }));
}

/** Sum of decimal strings ("350.00" + "12.5"), exact. */
export function sumAmounts(amounts: readonly string[]): string {
  const places = Math.max(0, ...amounts.map((a) => (a.split('.')[1] ?? '').length));
  const scaled = amounts.reduce((sum, a) => {
    const [units = '0', decimals = ''] = a.split('.');
    return sum + BigInt(units + decimals.padEnd(places, '0'));
  }, 0n);
  if (places === 0) return scaled.toString();
  const digits = scaled.toString().padStart(places + 1, '0');
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

const coveredOn = (coverages: { clientId?: string; validFrom: string; validTo?: string }[], clientId: string, date: string) =>
  coverages.some((c) => c.clientId === clientId && c.validFrom <= date && (c.validTo === undefined || date <= c.validTo));

export async function payerReport(scope: TenantScope, clientId: string, month: string) {
  const tenantId = scope.auth.tenantId;
  const client = await clientModel.or404(scope, clientId);
  const from = `${month}-01`;
  const to = monthEnd(month);
  const covered = await patients(scope).find(tenantId, { 'coverages.clientId': clientId }, { limit: 10_000 });
  const codes = new Map<string, string>();
  for (const a of (await authorizations(scope).find(tenantId, { clientId }, { limit: 10_000 })).items) {
    // A unit still reserved by an ended session is the one its consumption will take (the process manager follows).
    for (const sessionId of [...Object.keys(a.consumptions), ...Object.keys(a.reservations ?? {})]) codes.set(sessionId, a.code);
  }
  const rows: PayerReportRow[] = [];
  for (const patient of covered.items) {
    const docs = await sessionsBetween(scope, { from, to, patientId: patient.id });
    const paid = (d: (typeof docs)[number]) =>
      TREATED_STATUSES.has(d.status) && paidByPayer(d.status, d.effectiveMinutes, d.interruption !== null);
    for (const doc of docs.filter((d) => paid(d) && coveredOn(patient.coverages, clientId, d.date))) {
      const { derived } = sessionClinical(doc, { previousNetPostWeightKg: null, accessKind: null }, DEFAULT_CLINICAL_POLICY);
      const contract = contractInForceOn(client.contracts, doc.date);
      const authorizationCode = codes.get(doc.id) ?? null;
      const flags: PayerReportFlag[] = [];
      if (contract?.authorizationRequired && authorizationCode === null) flags.push('no-authorization');
      if (!isSigned(doc.status)) flags.push('unsigned');
      rows.push({
        patientId: patient.id,
        patientName: `${patient.familyNames}, ${patient.givenNames}`,
        document: `${patient.documentType} ${patient.documentNumber}`,
        sessionId: doc.id,
        date: doc.date,
        status: doc.status,
        dryWeightKg: doc.prescription?.dryWeightKg ?? null,
        preWeightKg: derived.netPreWeightKg,
        postWeightKg: derived.netPostWeightKg,
        treatmentHours: doc.effectiveMinutes === null ? null : Math.round((doc.effectiveMinutes / 60) * 100) / 100,
        ufLitres: derived.achievedUfL ?? derived.machineUfL,
        authorizationCode,
        contractNumber: contract?.number ?? null,
        amount: contract ? amountTimes(contract.rate.amount, 1) : null,
        currency: contract?.rate.currency ?? null,
        flags,
      });
    }
  }
  rows.sort((a, b) => a.patientName.localeCompare(b.patientName, 'es') || a.date.localeCompare(b.date));
  const totals = totalsOf(rows.filter((r) => r.flags.length === 0));
  const flaggedTotals = totalsOf(rows.filter((r) => r.flags.length > 0));
  return { clientId, clientName: client.legalName, month, sessions: rows.length, rows, totals, flaggedTotals };
}

const CSV_COLUMNS: (keyof PayerReportRow)[] = [
  'patientName',
  'document',
  'date',
  'dryWeightKg',
  'preWeightKg',
  'postWeightKg',
  'treatmentHours',
  'ufLitres',
  'authorizationCode',
  'contractNumber',
  'amount',
  'currency',
  'flags',
];
const CSV_HEADER = [
  'paciente',
  'documento',
  'fecha',
  'peso_seco_kg',
  'peso_pre_kg',
  'peso_post_kg',
  'horas_hd',
  'uf_litros',
  'autorizacion',
  'contrato',
  'monto',
  'moneda',
  'observaciones',
];

/** A chunk of rows at a time: a month of every patient of a large payer is 100k rows and more. */
export function payerReportCsv(rows: readonly PayerReportRow[]): Promise<string> {
  return csvTextInTurns(
    CSV_HEADER,
    rows.map((r) => CSV_COLUMNS.map((c) => (c === 'flags' ? r.flags.join(';') : r[c]))),
  );
}
