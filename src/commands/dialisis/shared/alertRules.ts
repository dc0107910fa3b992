// What makes an alert of the floor: said once for the alerts query and the dashboard's alert counters.

/** IDWG above this share of the dry weight is an outlier (DOPPS: above 4 % of body weight predicts worse outcomes). */
export const IDWG_ALERT_PERCENT = 4;
/** Consecutive missed sessions after which the payer is notified (Peruvian payer practice, domain.md 2.1). */
export const MISSED_IN_A_ROW = 3;
/** The judgement's flags that are alerts of the floor. */
export const ALERTING_FLAGS: readonly string[] = [
  'uf-rate-above-maximum',
  'ktv-below-minimum',
  'stdktv-below-minimum',
  'urr-below-minimum',
];
