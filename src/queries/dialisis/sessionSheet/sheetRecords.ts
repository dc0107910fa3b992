// The growing parts of the sheet: chart, intradialytic readings, complications, medications, signatures, amendments.
import { drawSessionChart } from './sessionChart.js';
import { ACCENT, INK, MUTED, RULE, type SheetWriter } from './sheetLayout.js';
import {
  blockLabel,
  bp,
  changeValue,
  clock,
  complicationLabel,
  dateTime,
  DASH,
  fieldLabel,
  num,
  routeLabel,
  severityLabel,
  text,
} from './sheetText.js';
import type { SessionSheet, SheetSigner } from './sessionSheet.js';

const CHART_HEIGHT = 190;

export function readingsBlock(w: SheetWriter, sheet: SessionSheet): void {
  const zone = sheet.timeZone;
  w.section('Controles intradiálisis', CHART_HEIGHT);
  drawSessionChart(
    w.doc,
    { x: w.left, y: w.y, width: w.width, height: CHART_HEIGHT },
    {
      readings: sheet.readings,
      complications: sheet.complications,
      startedAt: sheet.session.startedAt,
      endedAt: sheet.session.endedAt,
      timeZone: zone,
    },
  );
  w.y += CHART_HEIGHT + 10;
  const rows = [...sheet.readings]
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
    .map((r) => [
      clock(r.at, zone),
      bp(r.bloodPressure),
      num(r.pulse),
      num(r.qbMlMin),
      num(r.venousPressureMmHg),
      num(r.tmpMmHg),
      num(r.cumulativeUfMl),
      text(r.note),
    ]);
  w.table(
    [
      { header: 'Hora', weight: 7 },
      { header: 'PA (mmHg)', weight: 9, align: 'center' },
      { header: 'FC (lpm)', weight: 7, align: 'right' },
      { header: 'Qb (mL/min)', weight: 10, align: 'right' },
      { header: 'PV (mmHg)', weight: 9, align: 'right' },
      { header: 'PTM (mmHg)', weight: 9, align: 'right' },
      { header: 'UF acum. (mL)', weight: 11, align: 'right' },
      { header: 'Observación', weight: 30 },
    ],
    rows,
    'Sin controles registrados',
  );
}

export function complicationsBlock(w: SheetWriter, sheet: SessionSheet): void {
  w.section('Complicaciones', 30);
  w.table(
    [
      { header: 'Hora', weight: 7 },
      { header: 'Complicación', weight: 18 },
      { header: 'Severidad', weight: 10 },
      { header: 'Intervención', weight: 30 },
      { header: 'Evolución', weight: 22 },
    ],
    sheet.complications.map((c) => [
      clock(c.at, sheet.timeZone),
      complicationLabel(c.code) + (c.note ? ` (${c.note})` : ''),
      severityLabel(c.severity),
      text(c.intervention),
      text(c.outcome),
    ]),
    'Sin complicaciones',
  );
}

export function medicationsBlock(w: SheetWriter, sheet: SessionSheet): void {
  w.section('Medicación administrada', 30);
  w.table(
    [
      { header: 'Medicamento', weight: 20 },
      { header: 'Dosis', weight: 10, align: 'right' },
      { header: 'Vía', weight: 12 },
      { header: 'Hora', weight: 7 },
      { header: 'Lote', weight: 11 },
      { header: 'Administrado', weight: 25 },
    ],
    sheet.medications.map((m) => [
      m.drug,
      `${m.dose} ${m.unit}`,
      routeLabel(m.route),
      clock(m.at, sheet.timeZone),
      text(m.lot),
      m.given ? 'Sí' : `No${m.reasonNotGiven ? ` — ${m.reasonNotGiven}` : ''}`,
    ]),
    'Sin medicación registrada',
  );
}

export function signaturesBlock(w: SheetWriter, sheet: SessionSheet): void {
  w.section('Firmas', 62);
  const { doc } = w;
  const half = (w.width - 16) / 2;
  const box = (title: string, signer: SheetSigner | null, x: number): void => {
    doc.rect(x, w.y, half, 56).lineWidth(0.6).strokeColor(RULE).stroke();
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor(MUTED)
      .text(title, x + 6, w.y + 5, { width: half - 12, lineBreak: false });
    if (!signer) {
      doc
        .font('Helvetica-Oblique')
        .fontSize(8.5)
        .fillColor(MUTED)
        .text('Pendiente de firma', x + 6, w.y + 24, { width: half - 12 });
      return;
    }
    doc
      .font('Helvetica-Bold')
      .fontSize(9.5)
      .fillColor(INK)
      .text(signer.name, x + 6, w.y + 17, { width: half - 12, lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(INK)
      .text(`Colegiatura / licencia: ${text(signer.licence)}`, x + 6, w.y + 31, { width: half - 12, lineBreak: false })
      .text(`Firmado electrónicamente: ${dateTime(signer.at, sheet.timeZone)}`, x + 6, w.y + 42, { width: half - 12, lineBreak: false });
  };
  box('Enfermería (firma de la hoja)', sheet.signatures.nurse, w.left);
  box('Médico (validación)', sheet.signatures.physician, w.left + half + 16);
  w.y += 64;
}

export function amendmentsBlock(w: SheetWriter, sheet: SessionSheet): void {
  const zone = sheet.timeZone;
  w.section('Enmiendas y adendas', 30);
  const changes = (c: SessionSheet['amendments'][number]['changes']): string =>
    c.length ? c.map((x) => `${fieldLabel(x.field)}: ${changeValue(x.before)} -> ${changeValue(x.after)}`).join('\n') : DASH;
  const rows = [
    ...sheet.amendments.map((a) => ({
      at: a.at,
      row: [dateTime(a.at, zone), a.by, `Enmienda\n${blockLabel(a.block)}`, a.reason, changes(a.changes)],
    })),
    ...sheet.addenda.map((a) => ({ at: a.at, row: [dateTime(a.at, zone), a.by, 'Adenda', a.reason, a.text] })),
    // A validation an amendment withdrew stays on the sheet, before the amendment that sent the record back.
    ...(sheet.earlierValidations ?? []).map((v) => ({
      at: v.at,
      row: [dateTime(v.at, zone), v.name, 'Validación médica\n(anterior)', 'Retirada por una enmienda posterior', text(v.licence)],
    })),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  w.table(
    [
      { header: 'Fecha y hora', weight: 13 },
      { header: 'Por', weight: 15 },
      { header: 'Tipo', weight: 14 },
      { header: 'Motivo', weight: 22 },
      { header: 'Cambio (antes -> después) / texto', weight: 36 },
    ],
    rows.map((r) => r.row),
    'Sin enmiendas ni adendas',
  );
  w.ensure(12);
  w.doc
    .font('Helvetica')
    .fontSize(6.5)
    .fillColor(ACCENT)
    .text(
      'Registro de solo anexión: las correcciones posteriores a la firma se agregan como enmiendas o adendas; el dato original se conserva.',
      w.left,
      w.y,
      {
        width: w.width,
      },
    );
  w.y += 12;
}
