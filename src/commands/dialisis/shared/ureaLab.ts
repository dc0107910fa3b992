// Urea as laboratories report it (issue 21 item 7): BUN or urea, in mg/dL or mmol/L, kept as stated and converted to
// the BUN mg/dL the kinetics use. One mmol of urea carries 28 mg of nitrogen: BUN mmol/L = urea mmol/L, BUN mg/dL =
// mmol/L x 2.8, urea mg/dL = BUN mg/dL x 2.14 (60.06 / 28.01).

export const UREA_ANALYTES = ['BUN', 'urea'] as const;
export const UREA_UNITS = ['mg/dL', 'mmol/L'] as const;
/** How the post-dialysis sample was drawn to avoid recirculation and rebound (KDOQI 2006 HD adequacy, guideline 3). */
export const POST_SAMPLE_METHODS = ['slow-flow', 'stop-dialysate-flow', 'stop-pump', 'other'] as const;

export type UreaLab = { value: number; analyte: (typeof UREA_ANALYTES)[number]; unit: (typeof UREA_UNITS)[number] };

const BUN_MG_DL_PER_MMOL_L = 2.8;
const UREA_PER_BUN_MG_DL = 2.14;

/** The BUN (mg/dL) of a lab value as stated, to 2 decimals (the lab's own precision is coarser). */
export function bunMgDlOf(lab: UreaLab): number {
  const mgDl =
    lab.unit === 'mmol/L' ? lab.value * BUN_MG_DL_PER_MMOL_L : lab.analyte === 'urea' ? lab.value / UREA_PER_BUN_MG_DL : lab.value;
  return Math.round(mgDl * 100) / 100;
}

/** A BUN in mg/dL stated as a lab value: what a plain number has always meant. */
export const bunLab = (mgDl: number): UreaLab => ({ value: mgDl, analyte: 'BUN', unit: 'mg/dL' });

/** The BUN (mg/dL) the kinetics use must lie in the hard range of domain.md 2.12. */
export const BUN_RANGE_MG_DL = { min: 1, max: 300 } as const;

type Keys = { number: string; lab: string };

/**
 * A block with its urea as stated and as BUN mg/dL: a lab value sets the number; a plain number (older clients) stands
 * for BUN mg/dL and restates the lab value. Both given must agree. Returns the block and the field in error, if any.
 */
export function withUrea<T extends Record<string, unknown>>(
  block: T,
  keys: Keys,
): { block: T; error?: { field: string; message: string } } {
  const lab = block[keys.lab] as UreaLab | undefined;
  const stated = block[keys.number] as number | undefined;
  if (!lab) return { block };
  const mgDl = bunMgDlOf(lab);
  if (stated !== undefined && Math.abs(stated - mgDl) > 0.05) {
    return { block, error: { field: keys.number, message: `disagrees with ${keys.lab} (${mgDl} mg/dL BUN)` } };
  }
  if (mgDl < BUN_RANGE_MG_DL.min || mgDl > BUN_RANGE_MG_DL.max) {
    return { block, error: { field: `${keys.lab}/value`, message: `is ${mgDl} mg/dL as BUN: outside 1-300` } };
  }
  return { block: { ...block, [keys.number]: mgDl } };
}

/** The changes of an amendment that restate one side only: the other follows, so the two never disagree. */
export function ureaChanges(
  changes: Record<string, unknown>,
  current: Record<string, unknown> | null,
  keys: Keys,
): Record<string, unknown> {
  const lab = changes[keys.lab] as UreaLab | undefined;
  const stated = changes[keys.number] as number | undefined;
  if (lab && stated === undefined) return { ...changes, [keys.number]: bunMgDlOf(lab) };
  if (!lab && stated !== undefined && current?.[keys.lab] !== undefined) return { ...changes, [keys.lab]: bunLab(stated) };
  return changes;
}

export const PRE_UREA: Keys = { number: 'preBunMgDl', lab: 'preUrea' };
export const POST_UREA: Keys = { number: 'postBunMgDl', lab: 'postUrea' };
