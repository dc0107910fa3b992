// The derived values of one session (domain.md 2.4, 2.6, 2.10): weights, fluid balance, UF rate and urea kinetics.
// Facts, not judgements (clinicalFlags judges them); the one policy input is plausibility: kinetics of a session too short
// or interrupted, and an IDWG over too long an interval, are withheld with the reason (issue 21 items 2 and 6).
import type { PostDialysis, PreDialysis, PrescriptionSnapshot } from '../session/sessionEvents.js';
import { roundTo } from './rounding.js';
import { eKtVRateEquation, spKtVDaugirdas, urrPercent, type KineticsReason, type VascularAccessKind } from './ureaKinetics.js';
import { nPcrDepnerDaugirdas, residualStdKtV, stdKtVLeypoldt, ureaVolumeFromWeightL, type AdequacyReason } from './weeklyAdequacy.js';

type Tare = { scaleWeightKg: number; wheelchairKg?: number | undefined; clothesKg?: number | undefined };

export interface SessionClinicalInput {
  prescription: Pick<PrescriptionSnapshot, 'durationMinutes' | 'dryWeightKg' | 'frequencyPerWeek' | 'residualUreaClearance'> | null;
  pre: Pick<PreDialysis, 'scaleWeightKg' | 'wheelchairKg' | 'clothesKg' | 'fluidsToGiveL' | 'preBunMgDl'> | null;
  post: Pick<
    PostDialysis,
    'scaleWeightKg' | 'wheelchairKg' | 'clothesKg' | 'machineUfMl' | 'intakeL' | 'postBunMgDl' | 'machineEffectiveMinutes'
  > | null;
  /** Net post-weight of the patient's previous session, kg; null when there is none. */
  previousNetPostWeightKg: number | null;
  /** Treatment minutes actually delivered (pauses excluded); null while the session has not ended. */
  effectiveMinutes: number | null;
  accessKind: VascularAccessKind | null;
  /** The session was interrupted: its urea kinetics are not a delivered dose. */
  interrupted?: boolean;
  /** Hours from the previous session's end to this session's start; null when either is unknown. */
  interdialyticHours?: number | null;
  /** Below kineticsMinimumMinutes the kinetics are withheld; IDWG only when the interval is within idwgWindowDays. */
  plausibility?: { kineticsMinimumMinutes: number; idwgWindowDays: number };
  /** Days since the patient's previous session (nPCR's interval); absent or null when unknown. */
  interdialyticDays?: number | null;
}

export type NotComputedReason =
  | KineticsReason
  | AdequacyReason
  | 'pre-missing'
  | 'post-missing'
  | 'prescription-missing'
  | 'previous-post-weight-missing'
  | 'machine-uf-zero'
  /** Effective treatment time below the policy minimum: URR, Kt/V and UF rate would not be plausible. */
  | 'short-session'
  /** An interrupted session: URR and Kt/V are not the delivered dose. */
  | 'interrupted'
  /** The previous session ended longer ago than the policy's IDWG window. */
  | 'previous-session-too-long-ago'
  | 'interval-unknown';

export interface DerivedValues {
  netPreWeightKg: number | null;
  netPostWeightKg: number | null;
  /** Interdialytic weight gain: net pre-weight - previous session's net post-weight. */
  idwgKg: number | null;
  idwgPercentOfDryWeight: number | null;
  /** Hours from the previous session's end to this session's start (the interval the IDWG was gained over). */
  interdialyticHours: number | null;
  /** UF goal: net pre-weight - dry weight + fluids to give. */
  ufGoalL: number | null;
  /** Achieved UF: net pre-weight - net post-weight + intake during the session. */
  achievedUfL: number | null;
  machineUfL: number | null;
  /** Achieved - machine UF (positive: the scale says more was removed than the machine counted). */
  ufDifferenceL: number | null;
  ufDifferencePercent: number | null;
  /** Achieved UF (mL) / net post-weight (kg) / effective hours. */
  ufRateMlKgH: number | null;
  urrPercent: number | null;
  spKtV: number | null;
  eKtV: number | null;
  /** The interval is the long one of the week (the 3-day gap of a thrice-weekly schedule); null when unknown. */
  longInterval: boolean | null;
  /** Weekly standard Kt/V (FHN / Leypoldt) at the prescribed sessions a week, with the residual urea clearance when recorded. */
  stdKtV: number | null;
  /** Normalised protein catabolic rate (g/kg/day) from the same BUN pair (Depner & Daugirdas 1996). */
  nPcrGKgDay: number | null;
  /** Why each null value is null. */
  notComputed: Partial<Record<DerivedValueName, NotComputedReason>>;
}

export type DerivedValueName = Exclude<keyof DerivedValues, 'notComputed' | 'longInterval'>;

/** From 56 h on, an interval is the long one: Fri end -> Mon start is about 68 h, Mon end -> Wed start about 44 h. */
export const LONG_INTERVAL_HOURS = 56;

/** Weight less wheelchair and clothes (net = scale - wheelchair - clothes). */
export const netWeightKg = (block: Tare): number => block.scaleWeightKg - (block.wheelchairKg ?? 0) - (block.clothesKg ?? 0);

type Value = { value: number; reason?: never } | { value: null; reason: NotComputedReason };
type Raw = Record<DerivedValueName, Value>;
const ok = (value: number): Value => ({ value });
const no = (reason: NotComputedReason): Value => ({ value: null, reason });
/** A value computed from others, or the reason the first missing one is missing. */
const from1 = (a: Value, f: (a: number) => Value): Value => (a.value === null ? a : f(a.value));
const from2 = (a: Value, b: Value, f: (a: number, b: number) => Value): Value => from1(a, (x) => from1(b, (y) => f(x, y)));

/** Decimals shown for each value: weights and volumes 1 (scale precision 0.1 kg), Kt/V 2, percentages and rates 1. */
const DECIMALS: Record<DerivedValueName, number> = {
  netPreWeightKg: 1,
  netPostWeightKg: 1,
  idwgKg: 1,
  idwgPercentOfDryWeight: 1,
  interdialyticHours: 1,
  ufGoalL: 1,
  achievedUfL: 1,
  machineUfL: 1,
  ufDifferenceL: 1,
  ufDifferencePercent: 1,
  ufRateMlKgH: 1,
  urrPercent: 1,
  spKtV: 2,
  eKtV: 2,
  stdKtV: 2,
  nPcrGKgDay: 2,
};

/** Every derived value of one session, computed from unrounded inputs and rounded once at the end. */
export function derivedValues(input: SessionClinicalInput): DerivedValues {
  const raw = rawValues(input);
  const hours = input.interdialyticHours ?? null;
  const out = { notComputed: {}, longInterval: hours === null ? null : hours >= LONG_INTERVAL_HOURS } as DerivedValues;
  for (const name of Object.keys(DECIMALS) as DerivedValueName[]) {
    const computed = raw[name];
    out[name] = computed.value === null ? null : roundTo(computed.value, DECIMALS[name]);
    if (computed.value === null) out.notComputed[name] = computed.reason;
  }
  return out;
}

/** The interval, and whether it is too long for an IDWG (the previous post-weight then says nothing of this gain). */
function interval(input: SessionClinicalInput): { hours: Value; tooLong: boolean } {
  if (input.interdialyticHours === undefined) return { hours: no('interval-unknown'), tooLong: false };
  if (input.interdialyticHours === null) {
    return { hours: no(input.previousNetPostWeightKg === null ? 'previous-post-weight-missing' : 'interval-unknown'), tooLong: false };
  }
  const window = input.plausibility?.idwgWindowDays;
  return { hours: ok(input.interdialyticHours), tooLong: window !== undefined && input.interdialyticHours > window * 24 };
}

function rawValues(input: SessionClinicalInput): Raw {
  const { prescription, pre, post, previousNetPostWeightKg, effectiveMinutes, accessKind } = input;
  const netPre = pre ? ok(netWeightKg(pre)) : no('pre-missing');
  const netPost = post ? ok(netWeightKg(post)) : no('post-missing');
  const dry = prescription ? ok(prescription.dryWeightKg) : no('prescription-missing');
  // The machine's own count of treatment minutes, when stated, is the treatment time (domain.md 2.6 effective duration).
  const minutes = post?.machineEffectiveMinutes ?? effectiveMinutes;
  const hours = minutes !== null && minutes > 0 ? ok(minutes / 60) : no('treatment-time-missing');
  const short = minutes !== null && input.plausibility !== undefined && minutes < input.plausibility.kineticsMinimumMinutes;
  // Withheld, never printed: a 1-minute session would otherwise show eKt/V -46.55 and a UF rate of 2571 mL/kg/h.
  const timed = (v: Value): Value => (short ? no('short-session') : v);
  const urea = (v: Value): Value => (short ? no('short-session') : input.interrupted ? no('interrupted') : v);
  const previousPost = previousNetPostWeightKg === null ? no('previous-post-weight-missing') : ok(previousNetPostWeightKg);
  const gap = interval(input);

  const idwg = gap.tooLong ? no('previous-session-too-long-ago') : from2(netPre, previousPost, (p, previous) => ok(p - previous));
  const weightLoss = from2(netPre, netPost, (p, q) => ok(p - q));
  const achieved = from1(weightLoss, (loss) => ok(loss + (post?.intakeL ?? 0)));
  const machine = post ? ok(post.machineUfMl / 1000) : no('post-missing');
  const difference = from2(achieved, machine, (a, m) => ok(a - m));

  const bun = { preBunMgDl: pre?.preBunMgDl, postBunMgDl: post?.postBunMgDl };
  const urr = urea(from2(netPre, netPost, () => urrPercent(bun)));
  // Daugirdas' UF is the weight lost (pre - post) and W the post-dialysis weight.
  const spKtV = from1(urr, () =>
    from2(weightLoss, netPost, (uf, w) => spKtVDaugirdas({ ...bun, hours: hours.value, ufL: uf, postWeightKg: w })),
  );

  const eKtV = from1(spKtV, (sp) => eKtVRateEquation(sp, hours.value, accessKind));
  const weekly = weeklyValues(input, { spKtV, eKtV, netPost, minutes });

  return {
    netPreWeightKg: netPre,
    netPostWeightKg: netPost,
    idwgKg: idwg,
    idwgPercentOfDryWeight: from2(idwg, dry, (gain, d) => ok((gain / d) * 100)),
    interdialyticHours: gap.hours,
    ufGoalL: from2(netPre, dry, (p, d) => ok(p - d + (pre?.fluidsToGiveL ?? 0))),
    achievedUfL: achieved,
    machineUfL: machine,
    ufDifferenceL: difference,
    ufDifferencePercent: from2(difference, machine, (diff, m) => (m === 0 ? no('machine-uf-zero') : ok((diff / m) * 100))),
    // Normalised to the post-dialysis weight, as NQF 2701 (KCQA) and Assimon 2016 (AJKD 68:911) do: the pre-weight
    // still carries the fluid being removed.
    ufRateMlKgH: timed(from2(achieved, netPost, (uf, w) => from1(hours, (h) => ok((uf * 1000) / w / h)))),
    urrPercent: urr,
    spKtV,
    eKtV,
    ...weekly,
  };
}

/** stdKt/V, its residual share and nPCR (issue 21 item 5): the sessions a week and Kru come from the prescription. */
function weeklyValues(
  { prescription, pre, interdialyticDays, interdialyticHours }: SessionClinicalInput,
  { spKtV, eKtV, netPost, minutes }: { spKtV: Value; eKtV: Value; netPost: Value; minutes: number | null },
): Pick<Raw, 'stdKtV' | 'nPcrGKgDay'> {
  const perWeek = prescription?.frequencyPerWeek ?? null;
  const kru = prescription?.residualUreaClearance ?? null;
  // The treatment time of the eKt/V it comes from: the machine's effective minutes when stated (eKt/V needs a time).
  const dialysis = from1(eKtV, (e) => stdKtVLeypoldt(e, minutes!, perWeek));
  return {
    // Kru (when the prescription records it) adds Kru x 10080 / V; V is not modelled here: 55 % of the net post-weight.
    stdKtV: from2(dialysis, netPost, (d, w) => ok(d + (kru ? residualStdKtV(kru.mlMin, ureaVolumeFromWeightL(w)) : 0))),
    nPcrGKgDay: from1(spKtV, (sp) =>
      nPcrDepnerDaugirdas({
        preBunMgDl: pre!.preBunMgDl!,
        spKtV: sp,
        sessionsPerWeek: perWeek,
        interdialyticDays: interdialyticDays ?? intervalDays(interdialyticHours),
      }),
    ),
  };
}

/**
 * Days of the gap when not stated, told long or short as longInterval is (LONG_INTERVAL_HOURS): Friday's end to Monday's
 * start (68 h) is 3 days, a mid-week gap two shifts apart (51 h) 2; twice weekly, Monday to Thursday 3 and Thursday to Monday 4.
 */
function intervalDays(hours: number | null | undefined): number | null {
  if (typeof hours !== 'number') return null;
  const days = Math.round(hours / 24);
  return hours >= LONG_INTERVAL_HOURS ? Math.max(3, days) : Math.min(2, Math.max(1, days));
}
