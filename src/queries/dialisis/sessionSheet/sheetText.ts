// Spanish wording and number/time formats of the sheet; an unknown code prints as given rather than hiding data.

const STATUS: Record<string, string> = {
  scheduled: 'Programada',
  'checked-in': 'Paciente en sala',
  'in-progress': 'En curso',
  paused: 'En pausa',
  ended: 'Finalizada',
  signed: 'Firmada',
  validated: 'Validada',
  cancelled: 'Cancelada',
  'no-show': 'No asistió',
  interrupted: 'Interrumpida',
};

const KIND: Record<string, string> = { planned: 'Regular', extra: 'Extra', emergency: 'Emergencia' };

const COMPLICATION: Record<string, string> = {
  hypotension: 'Hipotensión',
  hypertension: 'Hipertensión',
  cramps: 'Calambres',
  'nausea-vomiting': 'Náuseas / vómitos',
  headache: 'Cefalea',
  'chest-pain': 'Dolor torácico',
  arrhythmia: 'Arritmia',
  'fever-chills': 'Fiebre / escalofríos',
  pruritus: 'Prurito',
  bleeding: 'Sangrado',
  'circuit-clotting': 'Coagulación del circuito',
  'access-problem': 'Problema de acceso',
  'air-embolism': 'Embolia gaseosa',
  hemolysis: 'Hemólisis',
  'dialyzer-reaction': 'Reacción al dializador',
  disequilibrium: 'Desequilibrio',
  seizure: 'Convulsión',
  'cardiac-arrest': 'Paro cardíaco',
  'machine-incident': 'Incidente de máquina',
  'transfer-to-hospital': 'Traslado a hospital',
  other: 'Otra',
};

const INTERRUPTION: Record<string, string> = {
  'hemodynamic-instability': 'Inestabilidad hemodinámica',
  'access-problem': 'Problema de acceso',
  'circuit-clotting': 'Coagulación del circuito',
  'machine-failure': 'Falla de máquina',
  'patient-request': 'Solicitud del paciente',
  'transfer-to-hospital': 'Traslado a hospital',
  'cardiac-arrest': 'Paro cardíaco',
  other: 'Otro',
};

const SEVERITY: Record<string, string> = { mild: 'Leve', moderate: 'Moderada', severe: 'Grave', 'life-threatening': 'Riesgo vital' };

const ROUTE: Record<string, string> = {
  'iv-venous-line': 'IV (línea venosa)',
  iv: 'IV',
  sc: 'SC',
  im: 'IM',
  oral: 'Oral',
  dialysate: 'Por dializado',
};

const SEROLOGY: Record<string, string> = { positive: 'Positivo', negative: 'Negativo', unknown: 'Sin dato' };

const FLAG: Record<string, string> = {
  'uf-rate-above-maximum': 'Tasa de UF sobre el máximo',
  'pre-weight-above-dry-weight': 'Peso pre sobre el peso seco',
  'post-weight-below-dry-weight': 'Peso post bajo el peso seco',
  'systolic-low': 'PA sistólica baja',
  'systolic-fall': 'Caída de la PA sistólica',
  'pulse-low': 'Bradicardia',
  'pulse-high': 'Taquicardia',
  fever: 'Fiebre',
  'duration-short': 'Duración efectiva menor a la prescrita',
  'qb-low': 'Qb bajo',
  'ktv-below-minimum': 'spKt/V bajo el mínimo',
  'stdktv-below-minimum': 'stdKt/V bajo el mínimo',
  'urr-below-minimum': 'URR bajo el mínimo',
  'uf-discrepancy': 'UF lograda distinta de la UF de máquina',
  'expected-uf-rate-above-maximum': 'Tasa de UF prevista sobre el máximo',
  'target-weight-missed': 'Peso objetivo no alcanzado',
  'treatment-time-lost': 'Tiempo de tratamiento perdido por interrupción',
};

const ACCESS: Record<string, string> = { AVF: 'FAV', AVG: 'Injerto AV', tunneledCVC: 'CVC tunelizado', nonTunneledCVC: 'CVC temporal' };
const SIDE: Record<string, string> = { left: 'izquierda', right: 'derecha' };

/** A vascular access as the sheet prints it: type, side and site. */
export const accessLabel = (access: { type: string; side: string; site?: string }): string =>
  [`${ACCESS[access.type] ?? access.type} ${SIDE[access.side] ?? access.side}`, access.site].filter(Boolean).join(' · ');

const BLOCK: Record<string, string> = {
  pre: 'Pre-diálisis',
  post: 'Post-diálisis',
  safetyChecks: 'Controles de seguridad',
  times: 'Horas del tratamiento',
};

const FIELD: Record<string, string> = {
  scaleWeightKg: 'Peso báscula (kg)',
  wheelchairKg: 'Silla de ruedas (kg)',
  clothesKg: 'Ropa (kg)',
  bloodPressure: 'PA (mmHg)',
  standingBloodPressure: 'PA de pie (mmHg)',
  pulse: 'Pulso (lpm)',
  temperatureC: 'Temperatura (°C)',
  machineUfMl: 'UF máquina (mL)',
  postBunMgDl: 'BUN post (mg/dL)',
  preBunMgDl: 'BUN pre (mg/dL)',
  conductivityMsCm: 'Conductividad (mS/cm)',
  dialysateTemperatureC: 'Temp. dializado (°C)',
  accessState: 'Estado del acceso',
  conditionAtDischarge: 'Condición al alta',
};

const from = (table: Record<string, string>) => (code: string) => table[code] ?? code;
export const statusLabel = from(STATUS);
export const kindLabel = from(KIND);
export const complicationLabel = from(COMPLICATION);
export const interruptionLabel = from(INTERRUPTION);
export const severityLabel = from(SEVERITY);
export const routeLabel = from(ROUTE);
export const serologyLabel = from(SEROLOGY);
export const blockLabel = from(BLOCK);
export const fieldLabel = from(FIELD);

export const DASH = '—';

/** A number with a fixed count of decimals, or a dash when absent. */
export function num(value: number | null | undefined, decimals = 0, unit = ''): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return `${value.toFixed(decimals)}${unit ? ` ${unit}` : ''}`;
}

export const bp = (value: { systolic: number; diastolic: number } | null | undefined): string =>
  value ? `${value.systolic}/${value.diastolic}` : DASH;

export const yesNo = (value: boolean | null | undefined): string => (value === undefined || value === null ? DASH : value ? 'Sí' : 'No');

export const text = (value: string | null | undefined): string => (value && value.trim() ? value : DASH);

/** Wall-clock parts of an instant in the clinic's zone. */
function parts(instant: string, timeZone: string): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
}

export function clock(instant: string | null | undefined, timeZone: string): string {
  if (!instant || Number.isNaN(Date.parse(instant))) return DASH;
  const p = parts(instant, timeZone);
  return `${p.hour}:${p.minute}`;
}

export function dateTime(instant: string | null | undefined, timeZone: string): string {
  if (!instant || Number.isNaN(Date.parse(instant))) return DASH;
  const p = parts(instant, timeZone);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** A calendar date (YYYY-MM-DD) as the clinics write it. */
export function day(date: string | null | undefined): string {
  const m = date ? /^(\d{4})-(\d{2})-(\d{2})/.exec(date) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : text(date);
}

export function changeValue(value: string | number | boolean | null): string {
  if (value === null) return DASH;
  if (typeof value === 'boolean') return yesNo(value);
  return String(value);
}

/** "Tasa de UF sobre el máximo (14.3; umbral 13)", with the reading when the flag points into one. */
export function flagText(flag: { code: string; field?: string; value?: number | null; threshold?: number | null }): string {
  const reading = flag.field ? /^readings\/(\d+)\//.exec(flag.field) : null;
  const where = reading ? ` en el control ${Number(reading[1]) + 1}` : '';
  const value = flag.value === null || flag.value === undefined ? '' : String(flag.value);
  const threshold = flag.threshold === null || flag.threshold === undefined ? '' : `umbral ${flag.threshold}`;
  const detail = [value, threshold].filter(Boolean).join('; ');
  return `${FLAG[flag.code] ?? flag.code}${where}${detail ? ` (${detail})` : ''}`;
}
