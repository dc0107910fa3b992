// Value types of the patient record. The `as const` lists feed both the TypeScript types and the JSON Schemas.

export const DOCUMENT_TYPES = ['DNI', 'CE', 'CC', 'CI', 'CURP', 'RUT', 'CPF', 'PASSPORT', 'OTHER'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const SEXES = ['female', 'male', 'other', 'unknown'] as const;
export type Sex = (typeof SEXES)[number];

export const BLOOD_GROUPS = ['A', 'B', 'AB', 'O'] as const;
export type BloodGroup = (typeof BLOOD_GROUPS)[number];
export const RH_FACTORS = ['positive', 'negative'] as const;
export type RhFactor = (typeof RH_FACTORS)[number];

export const PATIENT_STATUSES = ['active', 'transferred', 'hospitalized', 'transplanted', 'recovered', 'discharged', 'deceased'] as const;
export type PatientStatus = (typeof PATIENT_STATUSES)[number];

export const SEROLOGY_TESTS = ['HBsAg', 'antiHBs', 'antiHBc', 'antiHCV', 'HIV', 'VDRL'] as const;
export type SerologyTest = (typeof SEROLOGY_TESTS)[number];
export const SEROLOGY_RESULTS = ['positive', 'negative', 'indeterminate'] as const;
export type SerologyResult = (typeof SEROLOGY_RESULTS)[number];

/** Isolation groups a positive serology implies (dedicated machine / area). */
export const ISOLATIONS = ['HBV', 'HCV', 'HIV'] as const;
export type Isolation = (typeof ISOLATIONS)[number];

export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe', 'unknown'] as const;
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];

export const ACCESS_TYPES = ['AVF', 'AVG', 'tunneledCVC', 'nonTunneledCVC'] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];
export const ACCESS_SIDES = ['left', 'right'] as const;
export type AccessSide = (typeof ACCESS_SIDES)[number];
export const ACCESS_STATUSES = ['maturing', 'active', 'failed', 'removed'] as const;
export type AccessStatus = (typeof ACCESS_STATUSES)[number];

/** Calendar date `YYYY-MM-DD`. */
export type IsoDate = string;

export type Contact = {
  phone?: string;
  mobilePhone?: string;
  email?: string;
};

export type Address = {
  line: string;
  district?: string;
  city?: string;
  region?: string;
  country?: string;
  postalCode?: string;
};

export type EmergencyContact = {
  name: string;
  relationship?: string;
  phone: string;
};

export type SerologyEntry = {
  test: SerologyTest;
  result: SerologyResult;
  sampleDate: IsoDate;
  /** anti-HBs titre in mIU/mL (immunity when >= 10). */
  titer?: number;
  laboratory?: string;
};

export type AllergyEntry = {
  allergyId: string;
  substance: string;
  reaction?: string;
  severity?: AllergySeverity;
  notedDate?: IsoDate;
};

export type CoverageEntry = {
  coverageId: string;
  /** Id of the payer in Clientes, when registered there. */
  clientId?: string;
  /** Payer name, when the payer is not (yet) a registered client. */
  payerName?: string;
  memberNumber: string;
  plan?: string;
  validFrom: IsoDate;
  validTo?: IsoDate;
  authorizationCode?: string;
};

/** The demographic and clinical data a correction may change (status, weight, labs... have their own commands). */
export type PatientDemographics = {
  documentType: DocumentType;
  documentNumber: string;
  givenNames: string;
  familyNames: string;
  sex: Sex;
  birthDate: IsoDate;
  contact?: Contact;
  address?: Address;
  emergencyContact?: EmergencyContact;
  bloodGroup?: BloodGroup;
  rhFactor?: RhFactor;
  admissionDate: IsoDate;
  dialysisStartDate?: IsoDate;
  etiology?: string;
  comorbidities?: string[];
};

export const CORRECTABLE_FIELDS = [
  'documentType',
  'documentNumber',
  'givenNames',
  'familyNames',
  'sex',
  'birthDate',
  'contact',
  'address',
  'emergencyContact',
  'bloodGroup',
  'rhFactor',
  'admissionDate',
  'dialysisStartDate',
  'etiology',
  'comorbidities',
] as const satisfies readonly (keyof PatientDemographics)[];
export type CorrectableField = (typeof CORRECTABLE_FIELDS)[number];

/** Fields a correction may clear (send null). */
export const OPTIONAL_FIELDS: readonly CorrectableField[] = [
  'contact',
  'address',
  'emergencyContact',
  'bloodGroup',
  'rhFactor',
  'dialysisStartDate',
  'etiology',
  'comorbidities',
];

export type DemographicsPatch = { [K in CorrectableField]?: PatientDemographics[K] | null };
