// What a session keeps as it was at a moment (issue 21 item 3): the access used at the start, and the values judged at
// signing. A later change of the patient's access or of the company policy never rewrites them.

/** The vascular access the session used, as the patient's record and the prescription said at the start. */
export type AccessUsed = {
  accessId: string;
  type: string;
  side: string;
  site: string;
  needles: { arterialGauge?: number; venousGauge?: number; cannulationTechnique?: string } | null;
};

/**
 * The derived values and flags as judged when the record was signed (or amended), with the policy revision that judged
 * them: what a signed record shows from then on, whatever the patient's access or the policy become.
 */
export type JudgedClinical = {
  derived: Record<string, unknown>;
  flags: Record<string, unknown>[];
  policyRevision: number;
  judgedAt: string;
};
