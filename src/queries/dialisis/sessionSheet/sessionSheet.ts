// What the printed session sheet shows (domain.md 2): plain data, already resolved to names, so rendering is pure.
// Instants are ISO 8601 strings shown in `timeZone`; codes (status, complication, route...) are the API's own.
import type { SafetyChecks } from '../../../commands/dialisis/session/sessionEvents.js';

export type SheetBloodPressure = { systolic: number; diastolic: number };

export type SheetPatient = {
  fullName: string;
  documentType: string;
  documentNumber: string;
  secondIdentifier?: { type: string; value: string } | null;
  birthDate: string;
  /** Isolation the unit applies (e.g. "HBsAg+ — máquina dedicada"); null when none. */
  isolation?: string | null;
  /** Serology results by marker (HBsAg, anti-HCV, HIV...): "positive" | "negative" | "unknown" or free text. */
  serology?: { marker: string; result: string; on?: string }[];
};

export type SheetSession = {
  id: string;
  date: string;
  shift: string;
  kind: string;
  status: string;
  checkedInAt?: string | null;
  startedAt?: string | null;
  endedAt?: string | null;
  effectiveMinutes?: number | null;
  station?: string | null;
  machineCode?: string | null;
  dialyzer?: { serial: string; model?: string; useNumber: number } | null;
  bloodlines?: { arterial?: { code: string; useNumber: number } | null; venous?: { code: string; useNumber: number } | null } | null;
  interruption?: { reasonCode: string; note?: string; complication?: string; lostMinutes?: number } | null;
  /** Machines changed mid-session, as printed: "M-01 -> M-02 tras 62 min: Blood leak alarm". */
  machineChanges?: string[];
  /** The vascular access used, as printed: "FAV izquierda · radiocefálica". */
  access?: string | null;
};

export type SheetPrescription = {
  version: number;
  modality: string;
  durationMinutes: number;
  qbMlMin?: number;
  qdMlMin?: number;
  dialyzerModel?: string;
  /** The dialysate as the unit writes it, e.g. "Na 138 · K 2 · Ca 1.25 · HCO3 32 · 36.5 °C". */
  dialysate?: string;
  /** The anticoagulation as prescribed, e.g. "Heparina 2000 UI bolo + 1000 UI/h, suspender 30 min antes". */
  anticoagulation?: string;
  dryWeightKg: number;
};

export type SheetPre = {
  scaleWeightKg: number;
  wheelchairKg?: number;
  clothesKg?: number;
  netWeightKg: number;
  bloodPressure: SheetBloodPressure;
  standingBloodPressure?: SheetBloodPressure;
  pulse: number;
  temperatureC: number;
  spo2?: number;
  idwgKg?: number | null;
  ufGoalL?: number | null;
  preBunMgDl?: number;
  accessAssessment?: string;
};

export type SheetReading = {
  at: string;
  bloodPressure?: SheetBloodPressure;
  pulse?: number;
  qbMlMin?: number;
  venousPressureMmHg?: number;
  tmpMmHg?: number;
  cumulativeUfMl?: number;
  note?: string;
};

export type SheetComplication = { at: string; code: string; severity: string; intervention?: string; outcome?: string; note?: string };

export type SheetMedication = {
  drug: string;
  dose: number;
  unit: string;
  route: string;
  at: string;
  lot?: string;
  given: boolean;
  reasonNotGiven?: string;
};

export type SheetPost = {
  scaleWeightKg: number;
  netWeightKg: number;
  bloodPressure: SheetBloodPressure;
  standingBloodPressure?: SheetBloodPressure;
  pulse: number;
  temperatureC: number;
  machineUfMl: number;
  bloodProcessedL?: number;
  machineKtV?: number;
  machineUrrPercent?: number;
  hemostasisMinutes?: number;
  accessState?: string;
  conditionAtDischarge?: string;
  postBunMgDl?: number;
};

export type SheetDerived = {
  urrPercent?: number | null;
  spKtV?: number | null;
  eKtV?: number | null;
  ufRateMlKgH?: number | null;
  achievedUfL?: number | null;
  machineUfL?: number | null;
  /** Why a value is withheld (short-session, interrupted...): printed instead of a number. */
  notComputed?: Record<string, string>;
  flags: SheetFlag[];
};

/** A clinical flag as the session's clinical view gives it (code, where, value, threshold); unknown codes print as given. */
export type SheetFlag = { code: string; field?: string; value?: number | null; threshold?: number | null };

export type SheetSigner = { name: string; licence?: string | null; at: string };

export type SheetChange = { field: string; before: string | number | boolean | null; after: string | number | boolean | null };
export type SheetAmendment = { at: string; by: string; block: string; reason: string; changes: SheetChange[] };
export type SheetAddendum = { at: string; by: string; reason: string; text: string };

export type SessionSheet = {
  generatedAt: string;
  /** IANA zone of the location: times on the sheet are the clinic's wall clock. */
  timeZone: string;
  company: { name: string; taxId?: string | null };
  location: { name: string; address?: string | null };
  patient: SheetPatient;
  session: SheetSession;
  prescription: SheetPrescription | null;
  pre: SheetPre | null;
  /** The checks as recorded (SafetyChecksRecorded), with when. */
  safetyChecks: (SafetyChecks & { checkedAt?: string }) | null;
  readings: SheetReading[];
  complications: SheetComplication[];
  medications: SheetMedication[];
  post: SheetPost | null;
  derived: SheetDerived | null;
  signatures: { nurse: SheetSigner | null; physician: SheetSigner | null };
  /** Validations a later amendment withdrew: printed beside the amendments, the record awaiting validation again. */
  earlierValidations?: SheetSigner[];
  amendments: SheetAmendment[];
  addenda: SheetAddendum[];
};
