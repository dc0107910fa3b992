// Is the dialyzer at the start the one the prescription in force orders (domain.md 2.3: model + surface + flux)? Pure:
// the session start refuses a mismatch; a different dialyzer needs the physician's new prescription, not a nurse's
// override (domain.md 3.6 discards a dialyzer when the prescription changes to another model).

export const PRESCRIBED_DIALYZER_REASONS = [
  'dialyzer-model-not-prescribed',
  'dialyzer-flux-not-prescribed',
  'dialyzer-surface-not-prescribed',
] as const;
export type PrescribedDialyzerReason = (typeof PRESCRIBED_DIALYZER_REASONS)[number];

export interface DialyzerSpec {
  model: string;
  flux: string;
  surfaceM2: number;
}

const modelKey = (model: string): string => model.normalize('NFKC').trim().toLowerCase();

/** Surfaces are labelled to 0.1 m² (or 0.01): closer than 0.005 m² is the same surface. */
const SURFACE_TOLERANCE_M2 = 0.005;

/** Every way the dialyzer differs from the prescribed one; none when there is no prescribed dialyzer to compare. */
export function prescribedDialyzerReasons(dialyzer: DialyzerSpec, prescribed: DialyzerSpec | null | undefined): PrescribedDialyzerReason[] {
  if (!prescribed) return [];
  const reasons: PrescribedDialyzerReason[] = [];
  if (modelKey(dialyzer.model) !== modelKey(prescribed.model)) reasons.push('dialyzer-model-not-prescribed');
  if (dialyzer.flux !== prescribed.flux) reasons.push('dialyzer-flux-not-prescribed');
  if (Math.abs(dialyzer.surfaceM2 - prescribed.surfaceM2) > SURFACE_TOLERANCE_M2) reasons.push('dialyzer-surface-not-prescribed');
  return reasons;
}
