// Merging a partial change into the policy, listing what it changed, and the rules the whole policy must keep.
import { FieldChecks } from '../shared/fieldChecks.js';
import { pointerToken, valueAtPointer } from '../../jsonPointer.js';
import type { CompanyPolicy, NumberRange, PolicyPatch } from './shared/policySettings.js';
import { MAX_MODEL_OVERRIDES, POLICY_RANGES } from './shared/policySettings.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(current: unknown, patch: unknown): unknown {
  if (!isPlainObject(current) || !isPlainObject(patch)) return patch === undefined ? current : structuredClone(patch);
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) out[key] = merge(current[key], value);
  }
  return out;
}

/** The policy after a partial change: objects merge key by key; numbers, flags and lists replace the value they name. */
export function mergePolicy(current: CompanyPolicy, patch: PolicyPatch): CompanyPolicy {
  return merge(current, patch) as CompanyPolicy;
}

/** JSON pointers of the leaves (and whole lists) whose value differs, in document order. */
export function changedPaths(before: unknown, after: unknown, at = ''): string[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => changedPaths(before[k], after[k], `${at}/${pointerToken(k)}`));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [at];
}

function rangeProblem(value: unknown, range: NumberRange, nullable: boolean): string | null {
  // A model plan without a calibration interval takes the general one.
  if ((value === null || value === undefined) && nullable) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  // A retention period's minimum is the law's: a company may keep records longer, never shorter.
  if (range.unit === 'years' && value < range.min) return `may not go below the legal minimum of ${range.min} years`;
  if (value < range.min || value > range.max) return `must be between ${range.min} and ${range.max} ${range.unit}`;
  if (range.integer && !Number.isInteger(value)) return 'must be a whole number';
  return null;
}

/** Numbers that may be null (a maintenance plan by hours only, or by days only). */
const NULLABLE = /\/(preventiveEvery(Hours|Days)|calibrationEveryDays)$/;

/** Every number of the policy, concrete pointer -> its range (list entries expanded). */
function numbersOf(policy: CompanyPolicy): [string, NumberRange][] {
  const out: [string, NumberRange][] = [];
  for (const [pattern, range] of Object.entries(POLICY_RANGES)) {
    const star = pattern.indexOf('/*/');
    if (star < 0) {
      out.push([pattern, range]);
      continue;
    }
    const list = valueAtPointer(policy, pattern.slice(0, star));
    const count = Array.isArray(list) ? list.length : 0;
    for (let i = 0; i < count; i++) out.push([pattern.replace('/*/', `/${i}/`), range]);
  }
  return out;
}

/** The cross-field rules of one maintenance plan: at least one interval. */
function checkPlan(
  checks: FieldChecks,
  prefix: string,
  plan: { preventiveEveryHours: number | null; preventiveEveryDays: number | null },
): void {
  checks.check(
    plan.preventiveEveryHours !== null || plan.preventiveEveryDays !== null,
    `${prefix}/preventiveEveryHours`,
    'a maintenance plan needs an interval in hours, in days, or both',
  );
}

/** Each model (or germicide) once per list (compared ignoring case and surrounding spaces). */
function checkUniqueNames(checks: FieldChecks, prefix: string, names: string[], key = 'model'): void {
  checks.check(names.length <= MAX_MODEL_OVERRIDES, prefix, `at most ${MAX_MODEL_OVERRIDES} entries`);
  const keys = names.map((n) => n.trim().toLowerCase());
  keys.forEach((k, i) => {
    checks.check(k.length > 0, `${prefix}/${i}/${key}`, 'must not be blank');
    checks.check(keys.indexOf(k) === i, `${prefix}/${i}/${key}`, 'is listed twice');
  });
}

/**
 * Checks a whole policy: every range, and the rules between fields. Field names are JSON pointers under `settings`
 * (without the leading slash, as FieldChecks names fields), e.g. 'settings/adequacy/ktvTarget'.
 */
export function checkPolicy(policy: CompanyPolicy): void {
  const checks = new FieldChecks();
  const field = (pointer: string) => `settings${pointer}`;
  for (const [pointer, range] of numbersOf(policy)) {
    const problem = rangeProblem(valueAtPointer(policy, pointer), range, NULLABLE.test(pointer));
    checks.check(problem === null, field(pointer), problem ?? '');
  }
  const { adequacy, maintenance, dialyzerReuse } = policy;
  checks.check(adequacy.ktvTarget >= adequacy.ktvMinimum, field('/adequacy/ktvTarget'), 'must not be below ktvMinimum');
  // The audit of a clinical record outlives it: who saw or changed a record is answerable as long as the record is.
  const { retention } = policy;
  checks.check(
    retention.auditEntriesYears >= retention.clinicalRecordsYears,
    field('/retention/auditEntriesYears'),
    'must not be below clinicalRecordsYears',
  );
  checkPlan(checks, field('/maintenance'), maintenance);
  maintenance.modelOverrides.forEach((plan, i) => checkPlan(checks, field(`/maintenance/modelOverrides/${i}`), plan));
  checkUniqueNames(
    checks,
    field('/maintenance/modelOverrides'),
    maintenance.modelOverrides.map((o) => o.model),
  );
  checkUniqueNames(
    checks,
    field('/dialyzerReuse/modelOverrides'),
    dialyzerReuse.modelOverrides.map((o) => o.model),
  );
  const germicides = dialyzerReuse.germicideOverrides.map((o) => o.germicide);
  checkUniqueNames(checks, field('/dialyzerReuse/germicideOverrides'), germicides, 'germicide');
  checks.throwIfAny();
}
