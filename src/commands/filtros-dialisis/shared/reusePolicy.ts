// The part of the company policy a dialyzer's rules read (policySettings.ts dialyzerReuse), with the policy revision
// that every event a policy rule decided records.
import type { CompanyPolicy } from '../../empresas/shared/policySettings.js';

export type ReusePolicy = CompanyPolicy['dialyzerReuse'] & { revision: number };

const modelKey = (model: string): string => model.normalize('NFKC').trim().toLowerCase();

/** Most uses of a dialyzer: 1 when single-use, else its model's override, else the company default. */
export function maxUsesFor(model: string, reusable: boolean, policy: ReusePolicy): number {
  if (!reusable) return 1;
  const override = policy.modelOverrides.find((o) => modelKey(o.model) === modelKey(model));
  return override?.maxUses ?? policy.defaultMaxUses;
}

/** TCV as a % of the baseline, one decimal (what the reprocessing record and the label show). */
export function tcvPercentOf(tcvMl: number, baselineTcvMl: number): number {
  return Math.round((tcvMl / baselineTcvMl) * 1000) / 10;
}

/** Minimum dwell of a germicide: its policy entry (an exact name, or the start of the recorded one), else the default. */
export function minDwellHoursFor(germicide: string | null | undefined, policy: ReusePolicy): number {
  // A document projected before the germicide was kept has none: the general minimum applies.
  if (!germicide) return policy.germicideMinDwellHours;
  const recorded = modelKey(germicide);
  const entry = policy.germicideOverrides.find((o) => {
    const key = modelKey(o.germicide);
    return recorded === key || recorded.startsWith(`${key} `);
  });
  return entry?.minDwellHours ?? policy.germicideMinDwellHours;
}
