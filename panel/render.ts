// Draws one dashboard panel from its widget's data by the display convention every widget carries: `counts` as a bar
// or doughnut chart plus a labelled list of numbers (what screen readers and tests read), `series` as a line chart,
// `items` as a list of rows. Updates change the same elements in place.
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

Chart.defaults.color = '#4d5358';
Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

export interface Count {
  key: string;
  label: string;
  value: number;
}
export interface Series {
  key: string;
  label: string;
  points: { x: string; y: number | null }[];
}
export interface Item {
  id: string;
  label: string;
  detail: string;
  date?: string;
  severity?: 'info' | 'warning' | 'critical';
}
export interface WidgetData {
  counts?: Count[];
  series?: Series[];
  items?: Item[];
}

/** Colours with at least 3:1 against white (WCAG AA for graphics), told apart by hue. */
const PALETTE = ['#1f5fa8', '#b3261e', '#1e7a3c', '#8a4b00', '#6a3d9a', '#00707a', '#a3336b', '#4d5358'];

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** A panel's drawn parts, kept to update them in place. */
export class PanelView {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private readonly stamp: HTMLElement;
  private countsChart: Chart | null = null;
  private seriesChart: Chart | null = null;
  private countsList: HTMLElement | null = null;
  private countsFigure: HTMLElement | null = null;
  private itemsList: HTMLElement | null = null;
  position = -1n;

  constructor(
    readonly panelId: string,
    readonly widgetId: string,
    title: string,
    description: string,
  ) {
    this.root = el('section', 'panel');
    this.root.dataset.panel = panelId;
    this.root.dataset.widget = widgetId;
    const heading = el('h2', undefined, title);
    heading.id = `panel-${panelId}-title`;
    this.root.setAttribute('aria-labelledby', heading.id);
    this.root.append(heading);
    if (description) this.root.append(el('p', 'description', description));
    this.body = el('div', 'panel-body');
    this.body.append(el('p', 'muted', 'Loading…'));
    this.stamp = el('p', 'stamp');
    this.root.append(this.body, this.stamp);
  }

  /** Shows a message instead of data (no permission, an error). */
  message(text: string): void {
    this.body.replaceChildren(el('p', 'muted', text));
  }

  /** Draws the data when it is as recent as what is shown (positions only move forward); true when drawn. */
  update(data: WidgetData, asOf: { position: string; computedAt: string }): boolean {
    const position = BigInt(asOf.position);
    if (position < this.position) return false;
    this.position = position;
    if (this.body.querySelector('.muted')) this.body.replaceChildren();
    if (data.counts) this.drawCounts(data.counts);
    // An empty series draws no empty chart (until it has points).
    if (data.series && (this.seriesChart || data.series.some((line) => line.points.length > 0))) this.drawSeries(data.series);
    if (data.items) this.drawItems(data.items);
    if (!data.counts && !data.series && !data.items) this.message('Nothing to show.');
    const time = new Date(asOf.computedAt);
    this.stamp.textContent = `As of ${time.toLocaleTimeString()}`;
    this.root.dataset.position = asOf.position;
    return true;
  }

  private drawCounts(counts: Count[]): void {
    const labels = counts.map((c) => c.label);
    const values = counts.map((c) => c.value);
    if (!this.countsChart) {
      const figure = el('figure', 'chart');
      const canvas = el('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', 'Chart of the numbers listed below');
      figure.append(canvas);
      const doughnut = counts.length <= 4;
      const config: ChartConfiguration<'bar' | 'doughnut'> = {
        type: doughnut ? 'doughnut' : 'bar',
        data: { labels, datasets: [{ label: 'Count', data: values, backgroundColor: PALETTE, borderWidth: doughnut ? 2 : 0 }] },
        options: {
          animation: false,
          maintainAspectRatio: false,
          plugins: { legend: { display: doughnut, position: 'right' } },
          ...(doughnut ? {} : { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }),
        },
      };
      this.countsChart = new Chart(canvas, config);
      this.countsFigure = figure;
      this.countsList = el('ul', 'numbers');
      this.countsList.setAttribute('aria-live', 'polite');
      this.countsList.setAttribute('aria-label', 'Numbers');
      this.body.append(figure, this.countsList);
    } else {
      this.countsChart.data.labels = labels;
      this.countsChart.data.datasets[0]!.data = values;
      this.countsChart.update();
    }
    // All zero draws an empty doughnut (a blank hole): the numbers below say it.
    this.countsFigure!.hidden = values.every((value) => value === 0);
    const list = this.countsList!;
    const seen = new Set<string>();
    for (const count of counts) {
      seen.add(count.key);
      let row = list.querySelector<HTMLElement>(`li[data-key="${CSS.escape(count.key)}"]`);
      if (!row) {
        row = el('li');
        row.dataset.key = count.key;
        const value = el('span', 'value');
        value.dataset.widget = this.widgetId;
        value.dataset.key = count.key;
        row.append(el('span', 'label', count.label), value);
        list.append(row);
      }
      row.querySelector('.label')!.textContent = count.label;
      const value = row.querySelector<HTMLElement>('.value')!;
      if (value.textContent !== String(count.value)) value.textContent = String(count.value);
    }
    for (const row of [...list.querySelectorAll<HTMLElement>('li')]) if (!seen.has(row.dataset.key!)) row.remove();
  }

  private drawSeries(series: Series[]): void {
    const labels = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort();
    const datasets = series.map((s, i) => {
      const byX = new Map(s.points.map((p) => [p.x, p.y]));
      return { label: s.label, data: labels.map((x) => byX.get(x) ?? null), borderColor: PALETTE[i % PALETTE.length], spanGaps: true };
    });
    if (!this.seriesChart) {
      const figure = el('figure', 'chart');
      const canvas = el('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', series.map((s) => s.label).join(', '));
      figure.append(canvas);
      this.body.append(figure);
      this.seriesChart = new Chart(canvas, {
        type: 'line',
        data: { labels, datasets },
        options: { animation: false, maintainAspectRatio: false },
      });
    } else {
      this.seriesChart.data.labels = labels;
      this.seriesChart.data.datasets = datasets;
      this.seriesChart.update();
    }
  }

  private drawItems(items: Item[]): void {
    if (!this.itemsList) {
      this.itemsList = el('ul', 'items');
      this.itemsList.setAttribute('aria-live', 'polite');
      this.body.append(this.itemsList);
    }
    if (items.length === 0) {
      this.itemsList.replaceChildren(el('li', 'muted', 'None.'));
      return;
    }
    this.itemsList.replaceChildren(
      ...items.map((item) => {
        const row = el('li', `item ${item.severity ?? 'info'}`);
        row.dataset.id = item.id;
        row.append(el('strong', undefined, item.label), el('span', 'detail', item.detail));
        if (item.date) {
          const time = el('time', undefined, item.date);
          time.dateTime = item.date;
          row.append(time);
        }
        return row;
      }),
    );
  }

  destroy(): void {
    this.countsChart?.destroy();
    this.seriesChart?.destroy();
    this.root.remove();
  }
}
