// Value types of a staff record. The `as const` lists feed both the TypeScript types and the JSON Schemas.

export const STAFF_DOCUMENT_TYPES = ['DNI', 'CE', 'PASAPORTE', 'CURP', 'CC', 'RUT', 'DNI_AR', 'OTRO'] as const;
export type StaffDocumentType = (typeof STAFF_DOCUMENT_TYPES)[number];

/**
 * planilla: on the payroll (employee); honorarios: paid fees for services (independent professional);
 * temporal: fixed-term or replacement contract; otro: anything else (internship, agreement...).
 */
export const CONTRACT_TYPES = ['planilla', 'honorarios', 'temporal', 'otro'] as const;
export type ContractType = (typeof CONTRACT_TYPES)[number];

export const STAFF_SEROLOGY_TESTS = ['HBsAg', 'antiHBs', 'antiHCV', 'HIV'] as const;
export const STAFF_SEROLOGY_RESULTS = ['positive', 'negative', 'indeterminate'] as const;

export const STAFF_STATUSES = ['active', 'terminated'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

/** Calendar date `YYYY-MM-DD`. */
export type IsoDate = string;

export type StaffDocument = { type: StaffDocumentType; number: string };

export type Licence = {
  /** Licensing body, e.g. CMP, CEP, RETHUS. */
  body: string;
  number: string;
  expiresOn: IsoDate;
  specialtyRegistry?: string;
};

export type StaffSerology = {
  test: (typeof STAFF_SEROLOGY_TESTS)[number];
  result: (typeof STAFF_SEROLOGY_RESULTS)[number];
  takenOn: IsoDate;
};

export type HbvDose = { dose: number; givenOn: IsoDate };

/** What the orchestration found of a job position the command names (null: none in this company). */
export type PositionFacts = { status: 'active' | 'inactive'; clinical: boolean; licenceRequired: boolean } | null;

/** The fields a correction may change. */
export type StaffPersonal = {
  document: StaffDocument;
  givenNames: string;
  familyNames: string;
  profession?: string;
  hireDate: IsoDate;
  contractType: ContractType;
};
export const CORRECTABLE_STAFF_FIELDS = ['document', 'givenNames', 'familyNames', 'profession', 'hireDate', 'contractType'] as const;
export type StaffPatch = { [K in keyof StaffPersonal]?: undefined extends StaffPersonal[K] ? StaffPersonal[K] | null : StaffPersonal[K] };

/** Case, spaces, dots, dashes and slashes do not make two documents different: '12.345.678-k' = '12345678K'. */
export function staffDocumentKey(document: StaffDocument): string {
  return `${document.type}:${document.number
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s.\-/]/g, '')}`;
}
