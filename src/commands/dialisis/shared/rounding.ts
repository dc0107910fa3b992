// Rounding of displayed clinical values: half away from zero, so -0.25 and 0.25 round alike.

/** `value` rounded to `decimals` places, half away from zero; exact for values written with that many decimals. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  // The small epsilon keeps 1.005-style binary representations from rounding down.
  const rounded = Math.round(Math.abs(value) * factor * (1 + Number.EPSILON)) / factor;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}
