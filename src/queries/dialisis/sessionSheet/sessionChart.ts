// The intradialytic chart: BP and heart rate on the left axis, cumulative UF on the right, over session time.
import type PDFDocument from 'pdfkit';
import { INK, MUTED, RULE } from './sheetLayout.js';
import { clock, complicationLabel } from './sheetText.js';
import type { SheetComplication, SheetReading } from './sessionSheet.js';

type Doc = InstanceType<typeof PDFDocument>;
export type Box = { x: number; y: number; width: number; height: number };
export type ChartInput = {
  readings: SheetReading[];
  complications: SheetComplication[];
  startedAt?: string | null;
  endedAt?: string | null;
  timeZone: string;
};

type Series = { label: string; color: string; dash: boolean; axis: 'left' | 'right'; value: (r: SheetReading) => number | undefined };

export const CHART_SERIES: Series[] = [
  { label: 'PA sistólica (mmHg)', color: '#b42318', dash: false, axis: 'left', value: (r) => r.bloodPressure?.systolic },
  { label: 'PA diastólica (mmHg)', color: '#e8590c', dash: true, axis: 'left', value: (r) => r.bloodPressure?.diastolic },
  { label: 'Frecuencia cardíaca (lpm)', color: '#1864ab', dash: false, axis: 'left', value: (r) => r.pulse },
  { label: 'UF acumulada (mL, eje derecho)', color: '#2b8a3e', dash: true, axis: 'right', value: (r) => r.cumulativeUfMl },
];

const MINUTE = 60_000;
const LEGEND = 14;
const LEFT_AXIS = 30;
const RIGHT_AXIS = 36;
const BOTTOM_AXIS = 14;

/** Nice bounds and step for an axis holding `values`, at most about `ticks` intervals. */
function scale(values: number[], floor: number, minSpan: number, ticks: number): { min: number; max: number; step: number } {
  const lo = Math.max(floor, Math.min(...values));
  const hi = Math.max(lo + minSpan, Math.max(...values));
  const step = [10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000].find((s) => (hi - lo) / s <= ticks) ?? 10_000;
  // Half a step of air above and below, so no curve runs on the frame.
  const min = Math.max(floor, Math.floor((lo - step / 2) / step) * step);
  return { min, max: Math.ceil((hi + step / 2) / step) * step, step };
}

export function drawSessionChart(doc: Doc, box: Box, input: ChartInput): void {
  const plot = {
    x: box.x + LEFT_AXIS,
    y: box.y + LEGEND + 10,
    width: box.width - LEFT_AXIS - RIGHT_AXIS,
    height: box.height - LEGEND - 10 - BOTTOM_AXIS,
  };
  legend(doc, box);
  const readings = input.readings.filter((r) => !Number.isNaN(Date.parse(r.at)));
  if (readings.length === 0) {
    doc.rect(plot.x, plot.y, plot.width, plot.height).lineWidth(0.6).strokeColor(RULE).stroke();
    doc
      .font('Helvetica-Oblique')
      .fontSize(10)
      .fillColor(MUTED)
      .text('Sin controles registrados', plot.x, plot.y + plot.height / 2 - 5, { width: plot.width, align: 'center' });
    return;
  }
  const times = readings.map((r) => Date.parse(r.at));
  const t0 = Math.min(input.startedAt ? Date.parse(input.startedAt) : Infinity, ...times);
  const t1 = Math.max(input.endedAt ? Date.parse(input.endedAt) : -Infinity, ...times, t0 + 60 * MINUTE);
  const leftValues = CHART_SERIES.filter((s) => s.axis === 'left').flatMap((s) => readings.map(s.value).filter(isNumber));
  const ufValues = readings.map((r) => r.cumulativeUfMl).filter(isNumber);
  const left = scale(leftValues.length ? leftValues : [60, 160], 0, 60, 8);
  const right = scale(ufValues.length ? [0, ...ufValues] : [0, 1000], 0, 500, 6);
  const px = (t: number): number => plot.x + ((t - t0) / (t1 - t0)) * plot.width;
  const py = (v: number, axis: 'left' | 'right'): number => {
    const a = axis === 'left' ? left : right;
    return plot.y + plot.height - ((v - a.min) / (a.max - a.min)) * plot.height;
  };

  doc.font('Helvetica').fontSize(6.5);
  for (let v = left.min; v <= left.max; v += left.step) {
    const y = py(v, 'left');
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.width, y)
      .lineWidth(0.3)
      .strokeColor('#e3e8ee')
      .stroke();
    doc.fillColor(MUTED).text(String(v), box.x, y - 3, { width: LEFT_AXIS - 4, align: 'right', lineBreak: false });
  }
  for (let v = right.min; v <= right.max; v += right.step) {
    doc.fillColor('#2b8a3e').text(String(v), plot.x + plot.width + 4, py(v, 'right') - 3, { width: RIGHT_AXIS - 4, lineBreak: false });
  }
  const stepMinutes = [15, 30, 60, 120].find((m) => (t1 - t0) / (m * MINUTE) <= 10) ?? 240;
  for (let t = t0; t <= t1 + 1; t += stepMinutes * MINUTE) {
    const x = px(t);
    doc
      .moveTo(x, plot.y + plot.height)
      .lineTo(x, plot.y + plot.height + 3)
      .lineWidth(0.6)
      .strokeColor(INK)
      .stroke();
    doc.fillColor(MUTED).text(clock(new Date(t).toISOString(), input.timeZone), x - 15, plot.y + plot.height + 5, {
      width: 30,
      align: 'center',
      lineBreak: false,
    });
  }
  doc
    .fontSize(6)
    .fillColor(MUTED)
    .text('mmHg · lpm', box.x, plot.y - 9, { width: 60, lineBreak: false });
  doc
    .fillColor('#2b8a3e')
    .text('UF (mL)', plot.x + plot.width - 40, plot.y - 9, { width: 40 + RIGHT_AXIS, align: 'right', lineBreak: false });

  // An implausible value is drawn off the frame's edge, never over the labels or the table below.
  doc.save();
  doc.rect(plot.x, plot.y, plot.width, plot.height).clip();
  complicationMarks(doc, plot, input.complications, px, t0, t1);
  for (const series of CHART_SERIES) {
    const points = readings
      .map((r) => [Date.parse(r.at), series.value(r)] as const)
      .filter((p): p is readonly [number, number] => isNumber(p[1]))
      .map(([t, v]) => [px(t), py(v, series.axis)] as const);
    if (points.length === 0) continue;
    if (series.dash) doc.dash(3, { space: 2 });
    points.forEach(([x, y], i) => (i === 0 ? doc.moveTo(x, y) : doc.lineTo(x, y)));
    doc.lineWidth(1.2).strokeColor(series.color).stroke();
    doc.undash();
    for (const [x, y] of points) doc.circle(x, y, 1.6).fill(series.color);
  }
  doc.restore();
  // Axes last, so the lines stay crisp over the grid and the curves.
  doc
    .moveTo(plot.x, plot.y)
    .lineTo(plot.x, plot.y + plot.height)
    .lineTo(plot.x + plot.width, plot.y + plot.height)
    .lineTo(plot.x + plot.width, plot.y)
    .lineWidth(0.8)
    .strokeColor(INK)
    .stroke();
}

function legend(doc: Doc, box: Box): void {
  const slot = box.width / CHART_SERIES.length;
  CHART_SERIES.forEach((s, i) => {
    const x = box.x + LEFT_AXIS + i * (slot - 8);
    if (s.dash) doc.dash(3, { space: 2 });
    doc
      .moveTo(x, box.y + 5)
      .lineTo(x + 16, box.y + 5)
      .lineWidth(1.4)
      .strokeColor(s.color)
      .stroke();
    doc.undash();
    doc.circle(x + 8, box.y + 5, 1.8).fill(s.color);
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor(INK)
      .text(s.label, x + 20, box.y + 1.5, { width: slot - 28, lineBreak: false });
  });
}

/** A dotted line where each complication happened, so the curves read with their cause. */
function complicationMarks(
  doc: Doc,
  plot: Box,
  complications: SheetComplication[],
  px: (t: number) => number,
  t0: number,
  t1: number,
): void {
  for (const c of complications) {
    const t = Date.parse(c.at);
    if (Number.isNaN(t) || t < t0 || t > t1) continue;
    const x = px(t);
    doc.dash(1, { space: 2 });
    doc
      .moveTo(x, plot.y)
      .lineTo(x, plot.y + plot.height)
      .lineWidth(0.7)
      .strokeColor('#7048e8')
      .stroke();
    doc.undash();
    doc
      .font('Helvetica-Bold')
      .fontSize(6)
      .fillColor('#7048e8')
      .text(complicationLabel(c.code), x + 2, plot.y + 2, { width: 80, lineBreak: false });
  }
}

const isNumber = (v: number | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
