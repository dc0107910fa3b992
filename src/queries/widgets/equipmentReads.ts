// What the equipment and stock widgets read: counters by attention state (one document), and index ranges + limit over
// the per-item documents for what the company policy or the calendar decides (PM due, near max uses, lots expiring).
import { addDays } from '../../commands/shared/calendarDays.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import { policyView } from '../empresas/companyPolicy.js';
import type { CompanyPolicy } from '../../commands/empresas/shared/policySettings.js';
import { maintenanceDue, planFor } from '../../commands/monitores/shared/startRules.js';
import { maxUsesFor, type ReusePolicy } from '../../commands/filtros-dialisis/shared/reusePolicy.js';
import { isExpired } from '../../commands/productos/shared/stockState.js';
import {
  EQUIPMENT_COUNTERS,
  EQUIPMENT_DIALYZERS,
  EQUIPMENT_LOTS,
  EQUIPMENT_MACHINES,
  EQUIPMENT_PRODUCTS,
  EQUIPMENT_PROJECTION,
  DIALYZER_TCV,
  DIALYZER_USES,
  type CounterDoc,
} from '../../projections/widgets/equipmentProjection.js';
import {
  modelKeyOf,
  type EquipmentDialyzerDoc,
  type EquipmentMachineDoc,
  type EquipmentProductDoc,
} from '../../projections/widgets/equipmentDocs.js';
import type { BalanceDoc } from '../../projections/productos/productDocs.js';
import { SEVERITY_RANK, type DisplayItem as Item } from './widgetDefinition.js';

const DEFAULT_LIMIT = 10;

/** Most urgent first: critical before warning, then the earliest date, then the label. */
const byUrgency = (a: Item, b: Item): number =>
  SEVERITY_RANK[a.severity ?? 'info'] - SEVERITY_RANK[b.severity ?? 'info'] ||
  (a.date ?? '9999').localeCompare(b.date ?? '9999') ||
  a.label.localeCompare(b.label);

/** A record listed for two reasons is one row: both reasons, the more urgent severity, the date it falls due. */
function oneRowEach(items: Item[]): Item[] {
  const rows = new Map<string, Item>();
  for (const item of items) {
    const seen = rows.get(item.id);
    if (!seen) rows.set(item.id, item);
    else {
      const severity = byUrgency(item, seen) < 0 ? item.severity : seen.severity;
      rows.set(item.id, { ...seen, ...item, detail: `${seen.detail}; ${item.detail}`, ...(severity ? { severity } : {}) });
    }
  }
  return [...rows.values()];
}

const col = <T extends CounterDoc | EquipmentMachineDoc | EquipmentDialyzerDoc | EquipmentProductDoc | BalanceDoc>(
  scope: TenantScope,
  name: string,
): Collection<T> => scope.services.projections.collection<T>(EQUIPMENT_PROJECTION, name);

async function counterOf(scope: TenantScope, id: string): Promise<Record<string, number>> {
  return (await col<CounterDoc>(scope, EQUIPMENT_COUNTERS).get(scope.auth.tenantId, id))?.counts ?? {};
}

/** Days with lots expiring read at most for one count (each a document of the lots left to expire that day). */
const LOT_DAYS_MAX = 2_000;

/** Lots with stock left by when they expire: before today (expired) and from today to `until`, summed over their days. */
async function lotCounts(scope: TenantScope, today: string, until: string): Promise<{ expired: number; expiring: number }> {
  const days = await col<CounterDoc>(scope, EQUIPMENT_COUNTERS).find(
    scope.auth.tenantId,
    { day: { $lte: until } },
    { sort: { day: 1 }, limit: LOT_DAYS_MAX, projection: { day: 1, counts: 1 } },
  );
  let [expired, expiring] = [0, 0];
  for (const doc of days.items) {
    if (doc.day! < today) expired += doc.counts.lots ?? 0;
    else expiring += doc.counts.lots ?? 0;
  }
  return { expired, expiring };
}

/** One query per distinct plan: the models a policy names on their own, the others together. */
function plansOf<P>(overrides: { model: string }[], planOf: (model: string | null) => P): { filter: Filter; plan: P }[] {
  const keys = [...new Set(overrides.map((o) => modelKeyOf(o.model)))];
  return [
    { filter: keys.length ? { modelKey: { $nin: keys } } : {}, plan: planOf(null) },
    ...keys.map((key) => ({ filter: { modelKey: key }, plan: planOf(overrides.find((o) => modelKeyOf(o.model) === key)!.model) })),
  ];
}

const machineLabel = (doc: EquipmentMachineDoc): string => `${doc.code.trim()} (${doc.brand} ${doc.model})`;

async function machinesPmDue(scope: TenantScope, policy: CompanyPolicy, today: string, days: number, limit: number) {
  const machines = col<EquipmentMachineDoc>(scope, EQUIPMENT_MACHINES);
  const tenantId = scope.auth.tenantId;
  const at = `${today}T12:00:00.000Z`;
  let count = 0;
  const found = new Map<string, EquipmentMachineDoc>();
  for (const { filter, plan } of plansOf(policy.maintenance.modelOverrides, (model) => planFor(policy.maintenance, model ?? ''))) {
    const inService = { ...filter, status: { $ne: 'retired' } };
    // Due within `days` by the calendar: its base date + the plan's days falls on or before today + days.
    const byDays =
      plan.preventiveEveryDays === null ? null : { ...inService, pmBaseDate: { $lte: addDays(today, days - plan.preventiveEveryDays) } };
    // Due by the hour meter (hours have no date: only the ones whose hours ran out), not already listed by the calendar.
    const byHours =
      plan.preventiveEveryHours === null
        ? null
        : {
            ...inService,
            hoursSincePm: { $gte: plan.preventiveEveryHours },
            ...(byDays ? { pmBaseDate: { $gt: byDays.pmBaseDate.$lte } } : {}),
          };
    if (byDays) {
      count += await machines.count(tenantId, byDays);
      const page = await machines.find(tenantId, byDays, { sort: { pmBaseDate: 1 }, limit });
      for (const doc of page.items) found.set(doc.id, doc);
    }
    if (byHours) {
      count += await machines.count(tenantId, byHours);
      const page = await machines.find(tenantId, byHours, { sort: { hoursSincePm: -1 }, limit });
      for (const doc of page.items) found.set(doc.id, doc);
    }
  }
  const items = [...found.values()].map((doc): Item => {
    const due = maintenanceDue(doc, planFor(policy.maintenance, doc.model), at);
    const hours = due.hoursLeft !== null && due.hoursLeft <= 0 ? `, ${-due.hoursLeft} operating hours over` : '';
    return {
      id: doc.id,
      label: machineLabel(doc),
      detail: due.overdue ? `preventive maintenance overdue${hours}` : `preventive maintenance due by ${due.dueDate}`,
      ...(due.dueDate ? { date: due.dueDate } : {}),
      severity: due.overdue ? 'critical' : 'warning',
    };
  });
  return { count, items };
}

export async function machinesAttention(scope: TenantScope, today: string, days = 14, limit = DEFAULT_LIMIT) {
  const [counters, { settings }] = await Promise.all([counterOf(scope, 'machines'), policyView(scope.services, scope.auth.tenantId)]);
  const machines = col<EquipmentMachineDoc>(scope, EQUIPMENT_MACHINES);
  const inState = async (attention: string, detail: string, severity: Item['severity']): Promise<Item[]> => {
    const page = await machines.find(scope.auth.tenantId, { attention }, { sort: { codeKey: 1 }, limit });
    return page.items.map((doc) => ({ id: doc.id, label: machineLabel(doc), detail, severity }));
  };
  const [awaiting, out, pm] = await Promise.all([
    inState('awaiting-disinfection', 'awaiting disinfection after its last session', 'warning'),
    inState('out-of-service', 'out of service', 'critical'),
    machinesPmDue(scope, settings, today, days, limit),
  ]);
  return {
    today,
    days,
    counts: [
      { key: 'awaitingDisinfection', label: 'Awaiting disinfection', value: counters['awaiting-disinfection'] ?? 0 },
      { key: 'pmDue', label: `Preventive maintenance due within ${days} days or overdue`, value: pm.count },
      { key: 'outOfService', label: 'Out of service', value: counters['out-of-service'] ?? 0 },
    ],
    series: [],
    items: oneRowEach([...out, ...pm.items, ...awaiting])
      .sort(byUrgency)
      .slice(0, limit),
  };
}

export async function dialyzersAttention(scope: TenantScope, limit = DEFAULT_LIMIT) {
  const { revision, settings } = await policyView(scope.services, scope.auth.tenantId);
  const policy: ReusePolicy = { ...settings.dialyzerReuse, revision };
  const dialyzers = col<EquipmentDialyzerDoc>(scope, EQUIPMENT_DIALYZERS);
  const tenantId = scope.auth.tenantId;
  const margin = LIMITS.filtrosDialisis;
  const assigned = { patientId: { $ne: null } };
  const [uses, tcv] = await Promise.all([counterOf(scope, DIALYZER_USES), counterOf(scope, DIALYZER_TCV)]);
  // Counted from the counters (by model and uses, by whole TCV percent); listed from the indexes, a few at most.
  let nearMax = 0;
  for (const [key, value] of Object.entries(uses)) {
    const at = key.lastIndexOf('|');
    if (Number(key.slice(at + 1)) >= maxUsesFor(key.slice(0, at), true, policy) - margin.nearMaxUsesMargin) nearMax += value;
  }
  const below = policy.tcvThresholdPercent + margin.fallingTcvMarginPercent;
  const whole = Math.floor(below);
  let fallingTcv = Object.entries(tcv).reduce((sum, [key, value]) => (Number(key) < whole ? sum + value : sum), 0);
  // The part of the last whole percent under the line (e.g. 85 <= TCV < 85.5): a range within one point.
  if (whole < below) fallingTcv += await dialyzers.count(tenantId, { ...assigned, lastTcvPercent: { $gte: whole, $lt: below } });
  const found = new Map<string, EquipmentDialyzerDoc>();
  for (const { filter, plan } of plansOf(policy.modelOverrides, (model) => maxUsesFor(model ?? '', true, policy))) {
    const near = { ...filter, ...assigned, reusable: true, uses: { $gte: plan - margin.nearMaxUsesMargin } };
    for (const doc of (await dialyzers.find(tenantId, near, { sort: { uses: -1 }, limit })).items) found.set(doc.id, doc);
  }
  const falling = { ...assigned, lastTcvPercent: { $ne: null, $lt: below } };
  for (const doc of (await dialyzers.find(tenantId, falling, { sort: { lastTcvPercent: 1 }, limit })).items) found.set(doc.id, doc);
  const items = [...found.values()].map((doc): Item => {
    const max = maxUsesFor(doc.model, doc.reusable, policy);
    const reasons: string[] = [];
    if (doc.reusable && doc.uses >= max - margin.nearMaxUsesMargin) reasons.push(`${doc.uses} of ${max} uses`);
    if (doc.lastTcvPercent !== null && doc.lastTcvPercent < policy.tcvThresholdPercent + margin.fallingTcvMarginPercent)
      reasons.push(`TCV ${doc.lastTcvPercent} % of baseline (discarded below ${policy.tcvThresholdPercent} %)`);
    const critical = doc.uses >= max - 1 || (doc.lastTcvPercent ?? 100) < policy.tcvThresholdPercent + 1;
    return {
      id: doc.id,
      label: `${doc.serial.trim()} (${doc.model})`,
      detail: reasons.join('; '),
      severity: critical ? 'critical' : 'warning',
    };
  });
  return {
    counts: [
      { key: 'nearMaxUses', label: 'Near their maximum uses', value: nearMax },
      { key: 'fallingTcv', label: 'TCV falling towards the discard threshold', value: fallingTcv },
    ],
    series: [],
    items: items.sort(byUrgency).slice(0, limit),
  };
}

export async function stockAttention(scope: TenantScope, today: string, days = 60, limit = DEFAULT_LIMIT) {
  const tenantId = scope.auth.tenantId;
  const until = addDays(today, days);
  const lots = col<BalanceDoc>(scope, EQUIPMENT_LOTS);
  const products = col<EquipmentProductDoc>(scope, EQUIPMENT_PRODUCTS);
  const [counters, { expired, expiring }, below, lotPage] = await Promise.all([
    counterOf(scope, 'products'),
    lotCounts(scope, today, until),
    products.find(tenantId, { attention: 'below-minimum' }, { sort: { codeKey: 1 }, limit }),
    lots.find(tenantId, { expiry: { $lte: until } }, { sort: { expiry: 1 }, limit }),
  ]);
  const lotProducts = await Promise.all(lotPage.items.map((lot) => products.get(tenantId, lot.productId)));
  const belowItems = below.items.map((doc): Item => ({
    id: doc.id,
    label: `${doc.code.trim()} ${doc.name}`,
    detail: `stock ${doc.stock} ${doc.unit} below the minimum ${doc.minimumStock}`,
    severity: doc.stock <= 0 ? 'critical' : 'warning',
  }));
  const lotItems = lotPage.items.map((lot, i): Item => {
    const product = lotProducts[i];
    const gone = isExpired(lot.expiry, today);
    return {
      id: lot.id,
      label: product ? `${product.code.trim()} ${product.name}` : lot.productId,
      detail: `lot ${lot.lot ?? '-'}: ${lot.quantity} left in warehouse ${lot.warehouseId}, ${gone ? 'expired' : 'expires'} ${lot.expiry}`,
      date: lot.expiry!,
      severity: gone ? 'critical' : 'warning',
    };
  });
  return {
    today,
    days,
    counts: [
      { key: 'belowMinimum', label: 'Products below their minimum stock', value: counters['below-minimum'] ?? 0 },
      { key: 'lotsExpiring', label: `Lots expiring within ${days} days`, value: expiring },
      { key: 'lotsExpired', label: 'Expired lots with stock left', value: expired },
    ],
    series: [],
    items: [...belowItems, ...lotItems].sort(byUrgency).slice(0, limit),
  };
}
