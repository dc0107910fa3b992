// What a session's clinical values read besides the sessions, named where both the session record model (what its reads
// wait for) and the clinical view (what it reads) can import them without importing each other.
import { PACIENTES_PROJECTION, PATIENTS } from '../../projections/pacientes/pacientesProjection.js';
import { COMPANY_POLICIES, EMPRESAS_PROJECTION } from '../../projections/empresas/empresasProjection.js';
import { PRESCRIPTION_VERSIONS, PRESCRIPTIONS_PROJECTION } from '../../projections/dialisis/prescriptionsProjection.js';

/**
 * What the clinical values read besides the sessions: the patients (access kind, dry weight, names), the company's
 * policy (thresholds) and the prescriptions. An answer made of them is prepared afresh after a write to any, and a read
 * at a write's minPosition waits for them too.
 */
export const CLINICAL_SOURCES = [
  { projection: PACIENTES_PROJECTION, collection: PATIENTS },
  { projection: EMPRESAS_PROJECTION, collection: COMPANY_POLICIES },
  { projection: PRESCRIPTIONS_PROJECTION, collection: PRESCRIPTION_VERSIONS },
];

/** The read models of the clinical values (what a read of an answer made of them waits for, besides the sessions). */
export const CLINICAL_PROJECTIONS: readonly string[] = CLINICAL_SOURCES.map((s) => s.projection);
