// The fixed blocks of the sheet: heading, patient, session and prescription, pre-dialysis and checks, post and derived.
import { ACCENT, ALERT, INK, MUTED, RULE, type Cell, type SheetWriter } from './sheetLayout.js';
import { bp, clock, day, DASH, flagText, interruptionLabel, kindLabel, num, serologyLabel, statusLabel, text, yesNo } from './sheetText.js';
import type { SessionSheet, SheetFlag } from './sessionSheet.js';

export function heading(w: SheetWriter, sheet: SessionSheet): void {
  const { doc } = w;
  const { session } = sheet;
  doc.font('Helvetica-Bold').fontSize(17).fillColor(ACCENT).text('Hoja de hemodiálisis', w.left, w.y, { lineBreak: false });
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor(INK)
    .text(sheet.company.name, w.left, w.y + 22, { width: w.width * 0.6 });
  const place = [sheet.location.name, sheet.location.address, sheet.company.taxId ? `RUC/NIT ${sheet.company.taxId}` : null];
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(place.filter(Boolean).join(' · '), w.left, w.y + 33, { width: w.width * 0.6 });
  const boxWidth = 190;
  const bx = w.left + w.width - boxWidth;
  doc.rect(bx, w.y, boxWidth, 44).lineWidth(0.8).strokeColor(ACCENT).stroke();
  const line = (label: string, value: string, row: number, alert = false): void => {
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor(MUTED)
      .text(label, bx + 6, w.y + 5 + row * 12, { width: 60, lineBreak: false });
    doc
      .font('Helvetica-Bold')
      .fontSize(8.5)
      .fillColor(alert ? ALERT : INK)
      .text(value, bx + 62, w.y + 4 + row * 12, { width: boxWidth - 68, lineBreak: false });
  };
  line('Fecha / turno', `${day(session.date)} · ${session.shift}`, 0);
  line('Tipo / estado', `${kindLabel(session.kind)} · ${statusLabel(session.status)}`, 1, session.status === 'interrupted');
  line('N.º de sesión', session.id.length > 24 ? `${session.id.slice(0, 23)}…` : session.id, 2);
  w.y += 52;
}

export function patientBlock(w: SheetWriter, sheet: SessionSheet): void {
  const { patient } = sheet;
  w.section('Paciente', 50);
  const serology = (patient.serology ?? []).map((s) => `${s.marker}: ${serologyLabel(s.result)}`).join(' · ');
  const cells: Cell[] = [
    { label: 'Nombre completo', value: patient.fullName },
    { label: 'Documento', value: `${patient.documentType} ${patient.documentNumber}` },
    {
      label: 'Segundo identificador',
      value: patient.secondIdentifier ? `${patient.secondIdentifier.type} ${patient.secondIdentifier.value}` : DASH,
    },
    { label: 'Fecha de nacimiento', value: `${day(patient.birthDate)}${ageOn(patient.birthDate, sheet.session.date)}` },
    { label: 'Aislamiento', value: text(patient.isolation ?? 'No requiere'), alert: Boolean(patient.isolation) },
    { label: 'Serología', value: serology || DASH, alert: (patient.serology ?? []).some((s) => s.result === 'positive') },
  ];
  w.fields(cells.slice(0, 3), 3);
  w.fields(cells.slice(3), 3);
  w.gap(4);
}

export function sessionAndPrescription(w: SheetWriter, sheet: SessionSheet): void {
  const { session: s, prescription: p, timeZone } = sheet;
  w.section('Sesión y prescripción', 70);
  const lines = s.bloodlines;
  const sessionCells: Cell[] = [
    { label: 'Ingreso', value: clock(s.checkedInAt, timeZone) },
    { label: 'Inicio', value: clock(s.startedAt, timeZone) },
    { label: 'Fin', value: clock(s.endedAt, timeZone) },
    { label: 'Tiempo efectivo', value: num(s.effectiveMinutes, 0, 'min') },
    { label: 'Puesto', value: text(s.station) },
    { label: 'Máquina', value: text(s.machineCode) },
    {
      label: 'Dializador (serie · uso)',
      value: s.dialyzer ? `${s.dialyzer.serial} · uso ${s.dialyzer.useNumber}${s.dialyzer.model ? ` (${s.dialyzer.model})` : ''}` : DASH,
    },
    { label: 'Línea arterial · uso', value: lines?.arterial ? `${lines.arterial.code} · uso ${lines.arterial.useNumber}` : DASH },
    { label: 'Línea venosa · uso', value: lines?.venous ? `${lines.venous.code} · uso ${lines.venous.useNumber}` : DASH },
    { label: 'Acceso vascular', value: text(s.access) },
  ];
  for (const change of s.machineChanges ?? []) sessionCells.push({ label: 'Cambio de máquina', value: change, alert: true });
  if (s.interruption) {
    const { note, complication, lostMinutes } = s.interruption;
    const parts = [
      interruptionLabel(s.interruption.reasonCode),
      note,
      complication,
      lostMinutes ? `${lostMinutes} min perdidos` : undefined,
    ];
    sessionCells.push({ label: 'Interrupción', value: parts.filter(Boolean).join(' — '), alert: true });
  }
  const prescriptionCells: Cell[] = p
    ? [
        { label: 'Modalidad', value: p.modality },
        { label: 'Duración', value: num(p.durationMinutes, 0, 'min') },
        { label: 'Versión', value: `v${p.version}` },
        { label: 'Qb', value: num(p.qbMlMin, 0, 'mL/min') },
        { label: 'Qd', value: num(p.qdMlMin, 0, 'mL/min') },
        { label: 'Peso seco', value: num(p.dryWeightKg, 1, 'kg') },
        { label: 'Dializador', value: text(p.dialyzerModel) },
        { label: 'Baño de diálisis', value: text(p.dialysate) },
        { label: 'Anticoagulación', value: text(p.anticoagulation) },
      ]
    : [{ label: 'Prescripción', value: 'Sin prescripción registrada' }];
  w.twoColumns({ title: 'Sesión', cells: sessionCells }, { title: 'Prescripción (copia al inicio)', cells: prescriptionCells });
}

export function preAndChecks(w: SheetWriter, sheet: SessionSheet): void {
  const { pre, safetyChecks: c } = sheet;
  w.section('Pre-diálisis y controles de seguridad', 70);
  const preCells: Cell[] = pre
    ? [
        { label: 'Peso báscula', value: num(pre.scaleWeightKg, 1, 'kg') },
        { label: 'Tara (silla · ropa)', value: `${num(pre.wheelchairKg ?? 0, 1)} · ${num(pre.clothesKg ?? 0, 1)} kg` },
        { label: 'Peso neto', value: num(pre.netWeightKg, 1, 'kg') },
        { label: 'PA sentado', value: `${bp(pre.bloodPressure)} mmHg` },
        { label: 'PA de pie', value: pre.standingBloodPressure ? `${bp(pre.standingBloodPressure)} mmHg` : DASH },
        { label: 'Pulso', value: num(pre.pulse, 0, 'lpm') },
        { label: 'Temperatura', value: num(pre.temperatureC, 1, '°C'), alert: pre.temperatureC >= 37.8 },
        { label: 'Ganancia interdialítica', value: num(pre.idwgKg, 1, 'kg') },
        { label: 'Meta de UF', value: num(pre.ufGoalL, 2, 'L') },
        { label: 'SpO2', value: num(pre.spo2, 0, '%') },
        { label: 'BUN pre', value: num(pre.preBunMgDl, 0, 'mg/dL') },
        { label: 'Valoración del acceso', value: text(pre.accessAssessment) },
      ]
    : [{ label: 'Pre-diálisis', value: 'Sin registro' }];
  const check = (done: boolean | undefined): string => (done === undefined ? DASH : done ? 'Conforme' : 'NO conforme');
  const checkCells: Cell[] = c
    ? [
        { label: 'Conductividad (meta)', value: `${num(c.conductivityMsCm, 1)} (${num(c.conductivityTargetMsCm, 1)}) mS/cm` },
        { label: 'pH del dializado', value: num(c.dialysatePh, 2) },
        { label: 'Temp. del dializado', value: num(c.dialysateTemperatureC, 1, '°C') },
        { label: 'Sin desinfectante residual', value: yesNo(c.residualDisinfectantAbsent), alert: !c.residualDisinfectantAbsent },
        { label: 'Detector de aire', value: check(c.airDetectorTested), alert: !c.airDetectorTested },
        { label: 'Detector de fuga de sangre', value: check(c.bloodLeakDetectorArmed), alert: !c.bloodLeakDetectorArmed },
        { label: 'Control de UF', value: check(c.ufControlTested) },
        { label: 'Alarmas probadas', value: check(c.alarmsTested), alert: !c.alarmsTested },
        { label: 'Verificado por', value: `${c.checkedBy}${c.checkedAt ? ` · ${clock(c.checkedAt, sheet.timeZone)}` : ''}` },
      ]
    : [{ label: 'Controles de seguridad', value: 'Sin registro' }];
  w.twoColumns({ title: 'Pre-diálisis', cells: preCells }, { title: 'Controles de seguridad de la máquina', cells: checkCells });
}

export function postAndDerived(w: SheetWriter, sheet: SessionSheet): void {
  const { post, derived: d } = sheet;
  w.section('Post-diálisis y valores derivados', 70);
  const postCells: Cell[] = post
    ? [
        { label: 'Peso báscula', value: num(post.scaleWeightKg, 1, 'kg') },
        { label: 'Peso neto', value: num(post.netWeightKg, 1, 'kg') },
        { label: 'UF de máquina', value: num(post.machineUfMl, 0, 'mL') },
        { label: 'PA sentado', value: `${bp(post.bloodPressure)} mmHg` },
        { label: 'PA de pie', value: post.standingBloodPressure ? `${bp(post.standingBloodPressure)} mmHg` : DASH },
        { label: 'Pulso · temperatura', value: `${num(post.pulse, 0, 'lpm')} · ${num(post.temperatureC, 1, '°C')}` },
        { label: 'Sangre procesada', value: num(post.bloodProcessedL, 1, 'L') },
        { label: 'Kt/V · URR de máquina', value: `${num(post.machineKtV, 2)} · ${num(post.machineUrrPercent, 0, '%')}` },
        { label: 'Hemostasia', value: num(post.hemostasisMinutes, 0, 'min') },
        { label: 'Estado del acceso', value: text(post.accessState) },
        { label: 'Condición al alta', value: text(post.conditionAtDischarge) },
        { label: 'BUN post', value: num(post.postBunMgDl, 0, 'mg/dL') },
      ]
    : [{ label: 'Post-diálisis', value: 'Sin registro' }];
  const flags = d?.flags ?? [];
  const flagged = (code: string): boolean => flags.some((f) => f.code === code);
  // A value withheld as not plausible says why, never a number (issue 21 item 2).
  const shown = (name: 'urrPercent' | 'spKtV' | 'eKtV' | 'ufRateMlKgH', decimals: number, unit = ''): string =>
    WITHHELD[d?.notComputed?.[name] ?? ''] ?? num(d?.[name], decimals, unit);
  const derivedCells: Cell[] = d
    ? [
        { label: 'URR', value: shown('urrPercent', 1, '%'), alert: flagged('urr-below-minimum') },
        { label: 'spKt/V', value: shown('spKtV', 2), alert: flagged('ktv-below-minimum') },
        { label: 'eKt/V', value: shown('eKtV', 2) },
        { label: 'Tasa de UF', value: shown('ufRateMlKgH', 1, 'mL/kg/h'), alert: flagged('uf-rate-above-maximum') },
        { label: 'UF lograda', value: num(d.achievedUfL, 2, 'L'), alert: flagged('uf-discrepancy') },
        { label: 'UF de máquina', value: num(d.machineUfL, 2, 'L') },
      ]
    : [{ label: 'Valores derivados', value: 'Sin datos suficientes' }];
  w.twoColumns({ title: 'Post-diálisis', cells: postCells }, { title: 'Valores derivados', cells: derivedCells });
  flagLine(w, flags);
}

const WITHHELD: Record<string, string> = {
  'short-session': 'No calculado: sesión corta',
  interrupted: 'No calculado: sesión interrumpida',
};

function flagLine(w: SheetWriter, flags: SheetFlag[]): void {
  const { doc } = w;
  const body = flags.length ? flags.map(flagText).join(' · ') : 'Sin alertas clínicas';
  doc.font('Helvetica-Bold').fontSize(8);
  const height = doc.heightOfString(`Alertas clínicas: ${body}`, { width: w.width - 12 }) + 8;
  w.ensure(height);
  doc
    .rect(w.left, w.y, w.width, height)
    .lineWidth(0.6)
    .fillAndStroke(flags.length ? '#fdecea' : '#f4f7fa', flags.length ? ALERT : RULE);
  doc.fillColor(flags.length ? ALERT : MUTED).text(`Alertas clínicas: ${body}`, w.left + 6, w.y + 4, { width: w.width - 12 });
  w.y += height + 8;
}

/** " (54 años)" on the session date; empty when either date does not parse. */
function ageOn(birthDate: string, onDate: string): string {
  const b = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthDate);
  const d = /^(\d{4})-(\d{2})-(\d{2})/.exec(onDate);
  if (!b || !d) return '';
  const years = Number(d[1]) - Number(b[1]) - (`${d[2]}${d[3]}` < `${b[2]}${b[3]}` ? 1 : 0);
  return years >= 0 ? ` (${years} años)` : '';
}
