// The roles every company has from its first day, one per job in a dialysis unit (architecture.md, Scopes and
// permissions). Their permission sets are code, not data: a group added later reaches the jobs it serves without
// rewriting every company's history. Permissions a group has not declared yet grant nothing (filtered by the catalogue).

/** The company administrator's role: every company permission; a company keeps at least one. */
export const ADMIN_ROLE = 'admin';

export interface BuiltInRole {
  code: string;
  name: string;
  description: string;
  /** Every permission of the catalogue (the company administrator). */
  grantsAll: boolean;
  permissions: readonly string[];
}

const read = (...groups: string[]): string[] => groups.map((g) => `${g}:read`);
const write = (...groups: string[]): string[] => groups.map((g) => `${g}:write`);

/** Equipment a dialysis session uses: dialyzers and both bloodlines, each its own group. */
const REUSE = ['filtros-dialisis', 'lineas-arteriales', 'lineas-venosas'];
const CLINICAL_READS = [
  ...read('pacientes', 'dialisis', 'monitores', ...REUSE, 'colaboradores', 'cargos-laborales', 'empresas', 'widgets'),
  'pacientes:notes',
];

export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  {
    code: ADMIN_ROLE,
    name: 'Administrador',
    description: 'Company administrator: every permission of the company, including users, roles, policy and locations',
    grantsAll: true,
    permissions: [],
  },
  {
    code: 'medical-director',
    name: 'Médico director',
    description: 'Head of unit: clinical records, prescriptions, validation of sessions, staff and policy reading, exports',
    grantsAll: false,
    permissions: [
      ...CLINICAL_READS,
      ...write('pacientes', 'dialisis'),
      'dialisis:sign',
      'dialisis:validate',
      'dialisis:prescribe',
      'dialisis:export',
      ...read('productos', 'clientes', 'usuarios', 'roles'),
    ],
  },
  {
    code: 'physician',
    name: 'Médico nefrólogo',
    description: 'Nephrologist on duty: patients, prescriptions and validation of the sessions of the shift',
    grantsAll: false,
    permissions: [...CLINICAL_READS, ...write('pacientes', 'dialisis'), 'dialisis:sign', 'dialisis:validate', 'dialisis:prescribe'],
  },
  {
    code: 'nurse',
    name: 'Enfermero(a)',
    description: 'Dialysis nurse: patients and nursing notes, the daily record and its sign-off, reuse checks before use',
    grantsAll: false,
    permissions: [...CLINICAL_READS, ...write('pacientes', 'dialisis', ...REUSE), 'dialisis:sign', ...read('productos')],
  },
  {
    code: 'nursing-technician',
    name: 'Técnico(a) de enfermería',
    description: 'Nursing technician: reads patients, records intradialytic readings and supplies used',
    grantsAll: false,
    permissions: [...CLINICAL_READS, ...write('dialisis'), ...read('productos')],
  },
  {
    code: 'biomedical-technician',
    name: 'Técnico biomédico',
    description: 'Machines: registration, disinfection, calibration, preventive and corrective maintenance',
    grantsAll: false,
    permissions: [...read('monitores', 'empresas', 'colaboradores', 'productos', 'widgets'), ...write('monitores')],
  },
  {
    code: 'reprocessing-technician',
    name: 'Técnico de reúso',
    description: 'Dialyzer and bloodline reprocessing: tests, germicide, storage, labels and discards',
    grantsAll: false,
    permissions: [...read('pacientes', ...REUSE, 'empresas', 'productos', 'widgets'), ...write(...REUSE)],
  },
  {
    code: 'pharmacist',
    name: 'Químico farmacéutico / almacén',
    description: 'Stock: products, lots, receipts, issues, transfers and adjustments',
    grantsAll: false,
    permissions: [...read('productos', 'pacientes', 'empresas', 'widgets'), ...write('productos')],
  },
  {
    code: 'receptionist',
    name: 'Admisión',
    description: 'Admission: registers patients and their coverage, reads the schedule',
    grantsAll: false,
    permissions: [...read('pacientes', 'dialisis', 'clientes', 'empresas', 'widgets'), ...write('pacientes')],
  },
  {
    code: 'billing',
    name: 'Facturación',
    description: 'Payers: clients, contracts, authorizations and monthly payer reports',
    grantsAll: false,
    permissions: [
      ...read('clientes', 'pacientes', 'dialisis', 'productos', 'empresas', 'widgets'),
      ...write('clientes'),
      'clientes:export',
    ],
  },
  {
    code: 'auditor',
    name: 'Auditor',
    description:
      'Reads every record of the company and its history, changes none of them; places and lifts legal holds on patients (which keep them)',
    grantsAll: false,
    permissions: [
      ...CLINICAL_READS,
      'pacientes:legal-hold',
      ...read('productos', 'clientes', 'usuarios', 'roles', 'generador'),
      'sistema:audit',
      'sistema:export',
      'dialisis:export',
      'clientes:export',
    ],
  },
];

const byCode = new Map(BUILT_IN_ROLES.map((r) => [r.code, r]));

/** The groups of the service (domain.md, section 8) by their path: every permission names one of them. */
export const PERMISSION_GROUPS = [
  'cargos-laborales',
  'clientes',
  'colaboradores',
  'dialisis',
  'empresas',
  'filtros-dialisis',
  'generador',
  'lineas-arteriales',
  'lineas-venosas',
  'monitores',
  'pacientes',
  'productos',
  'roles',
  'sistema',
  'usuarios',
  'widgets',
] as const;

export const builtInRole = (code: string): BuiltInRole | undefined => byCode.get(code);
export const isBuiltInRole = (code: string): boolean => byCode.has(code);

export interface RoleDefinition {
  name: string;
  permissions: string[];
  grantsAll: boolean;
  description?: string;
}

/** The role a code names in a company: built-in (code) first, then the company's own (`custom`). */
export function roleOf(custom: Record<string, RoleDefinition>, code: string): RoleDefinition | undefined {
  const builtIn = builtInRole(code);
  if (builtIn)
    return { name: builtIn.name, permissions: [...builtIn.permissions], grantsAll: builtIn.grantsAll, description: builtIn.description };
  return custom[code];
}

/**
 * Company permissions a set of roles grants; `catalog` is every company permission the registered groups declare.
 * Anything a role lists outside the catalog grants nothing: a company role never reaches the platform.
 */
export function permissionsOf(roles: Record<string, RoleDefinition>, held: readonly string[], catalog: readonly string[]): string[] {
  const out = new Set<string>();
  for (const code of held) {
    const role = roleOf(roles, code);
    if (!role) continue;
    for (const p of role.grantsAll ? catalog : role.permissions) if (catalog.includes(p)) out.add(p);
    // Every module of the company (issue 26; a stand-in until roles learn module permissions, H5).
    if (role.grantsAll) out.add('mod.*');
  }
  return [...out].sort();
}
