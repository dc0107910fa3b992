// The soak's plot (PNG, @napi-rs/canvas): four panels over minutes: memory (RSS, heap used), open descriptors, file
// sizes (event log, read models) and requests per minute with errors. Plain lines: no chart library needed.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { SoakSample } from './soakSampler.js';

interface Series {
  label: string;
  color: string;
  values: number[];
}

const W = 1000;
const H = 640;
const PAD = { left: 60, right: 15, top: 28, bottom: 28 };

function panel(g: SKRSContext2D, x0: number, y0: number, w: number, h: number, title: string, minutes: number[], series: Series[]): void {
  const all = series.flatMap((s) => s.values);
  const top = Math.max(1, ...all) * 1.1;
  const maxMinute = Math.max(1, ...minutes);
  const px = (m: number) => x0 + PAD.left + ((w - PAD.left - PAD.right) * m) / maxMinute;
  const py = (v: number) => y0 + h - PAD.bottom - ((h - PAD.top - PAD.bottom) * v) / top;
  g.strokeStyle = '#999';
  g.lineWidth = 1;
  g.strokeRect(x0 + PAD.left, y0 + PAD.top, w - PAD.left - PAD.right, h - PAD.top - PAD.bottom);
  g.fillStyle = '#000';
  g.font = '14px sans-serif';
  g.fillText(title, x0 + PAD.left, y0 + 18);
  g.font = '11px sans-serif';
  for (let k = 0; k <= 4; k++) {
    const v = (top * k) / 4;
    g.fillText(v >= 100 ? v.toFixed(0) : v.toFixed(1), x0 + 6, py(v) + 4);
  }
  g.fillText(`0`, px(0) - 3, y0 + h - 10);
  g.fillText(`${maxMinute.toFixed(0)} min`, px(maxMinute) - 36, y0 + h - 10);
  series.forEach((s, i) => {
    g.strokeStyle = s.color;
    g.lineWidth = 2;
    g.beginPath();
    s.values.forEach((v, k) => (k === 0 ? g.moveTo(px(minutes[k]!), py(v)) : g.lineTo(px(minutes[k]!), py(v))));
    g.stroke();
    g.fillStyle = s.color;
    g.fillRect(x0 + PAD.left + 8, y0 + PAD.top + 6 + 14 * i, 10, 3);
    g.fillText(s.label, x0 + PAD.left + 22, y0 + PAD.top + 12 + 14 * i);
  });
}

export function plotSoak(samples: SoakSample[]): Buffer {
  const canvas = createCanvas(W, H);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, W, H);
  const minutes = samples.map((s) => s.minute);
  const perMinute = samples.map((s, k) => {
    const prev = samples[k - 1];
    return prev ? (s.requests - prev.requests) / Math.max(1e-6, s.minute - prev.minute) : 0;
  });
  const [hw, hh] = [W / 2, H / 2];
  panel(g, 0, 0, hw, hh, 'Memory (MiB)', minutes, [
    { label: 'RSS', color: '#1f77b4', values: samples.map((s) => s.rssMiB) },
    { label: 'heap used (floor)', color: '#ff7f0e', values: samples.map((s) => s.heapUsedMiB) },
    { label: 'heap used (peak)', color: '#ffbb78', values: samples.map((s) => s.heapPeakMiB) },
    { label: 'heap after full GC', color: '#d62728', values: samples.map((s) => s.heapLiveMiB) },
  ]);
  panel(g, hw, 0, hw, hh, 'Open descriptors', minutes, [{ label: 'fds', color: '#2ca02c', values: samples.map((s) => s.fds) }]);
  panel(g, 0, hh, hw, hh, 'Files (MiB, with -wal and -shm)', minutes, [
    { label: 'event log', color: '#9467bd', values: samples.map((s) => s.eventLogMiB) },
    { label: 'event log -wal', color: '#e377c2', values: samples.map((s) => s.eventWalMiB) },
    { label: 'read models', color: '#8c564b', values: samples.map((s) => s.readModelMiB) },
  ]);
  panel(g, hw, hh, hw, hh, 'Requests per minute, errors (cumulative)', minutes, [
    { label: 'requests/min', color: '#17becf', values: perMinute },
    { label: 'errors', color: '#d62728', values: samples.map((s) => s.errors) },
  ]);
  return canvas.toBuffer('image/png');
}
