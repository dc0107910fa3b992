// Which isolation a patient's serology implies. Unit policy (documented in the API contract):
// the latest result of each test counts (by sample date, then by order recorded);
// HBsAg positive -> 'HBV' (dedicated machine and area; no dialyzer reuse by default);
// anti-HCV positive -> 'HCV' (dedicated machine per the unit's policy);
// HIV positive -> 'HIV' (dedicated machine per the unit's policy).
// An indeterminate result implies no isolation by itself: the unit repeats the test.
import type { Isolation, SerologyEntry, SerologyTest } from './patientTypes.js';

export const ISOLATION_BY_TEST: Partial<Record<SerologyTest, Isolation>> = {
  HBsAg: 'HBV',
  antiHCV: 'HCV',
  HIV: 'HIV',
};

/** Latest entry per test: a later sample date wins; on the same date the one recorded later wins. */
export function latestByTest(history: readonly SerologyEntry[]): Partial<Record<SerologyTest, SerologyEntry>> {
  const latest: Partial<Record<SerologyTest, SerologyEntry>> = {};
  for (const entry of history) {
    const current = latest[entry.test];
    if (!current || entry.sampleDate >= current.sampleDate) latest[entry.test] = entry;
  }
  return latest;
}

/** The isolations implied by a serology history, in a stable order. */
export function isolationOf(history: readonly SerologyEntry[]): Isolation[] {
  const latest = latestByTest(history);
  const result: Isolation[] = [];
  for (const [test, isolation] of Object.entries(ISOLATION_BY_TEST) as [SerologyTest, Isolation][]) {
    if (latest[test]?.result === 'positive') result.push(isolation);
  }
  return result;
}

export function sameIsolation(a: readonly Isolation[], b: readonly Isolation[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
