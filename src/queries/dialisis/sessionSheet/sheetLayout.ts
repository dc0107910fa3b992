// A top-to-bottom writer over pdfkit: section bands, label/value grids and tables that break pages themselves.
import type PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

export const INK = '#1b1f24';
export const MUTED = '#5b6570';
export const RULE = '#c9d1d9';
export const BAND = '#e4ecf3';
export const ACCENT = '#1f3a5f';
export const ALERT = '#b42318';

export const MARGIN = 36;
/** Room kept under the content for the footer. */
export const FOOTER_ROOM = 40;

export type Cell = { label: string; value: string; alert?: boolean };
export type Column = { header: string; weight: number; align?: 'left' | 'right' | 'center' };

const PAD = 3;

export class SheetWriter {
  y: number;

  constructor(readonly doc: Doc) {
    this.y = MARGIN;
  }

  get left(): number {
    return MARGIN;
  }

  get width(): number {
    return this.doc.page.width - 2 * MARGIN;
  }

  get bottom(): number {
    return this.doc.page.height - FOOTER_ROOM;
  }

  /** Starts a new page unless `height` still fits; says whether it broke. */
  ensure(height: number): boolean {
    if (this.y + height <= this.bottom) return false;
    this.doc.addPage();
    this.y = MARGIN;
    return true;
  }

  gap(points: number): void {
    this.y += points;
  }

  /** A section band; `keepWith` is the room its first content needs, so a title never ends a page alone. */
  section(title: string, keepWith = 40): void {
    this.ensure(18 + keepWith);
    const { doc } = this;
    doc.rect(this.left, this.y, this.width, 15).fill(BAND);
    doc.rect(this.left, this.y, 3, 15).fill(ACCENT);
    doc
      .font('Helvetica-Bold')
      .fontSize(9)
      .fillColor(ACCENT)
      .text(title.toUpperCase(), this.left + 9, this.y + 4, { width: this.width - 12, lineBreak: false });
    this.y += 19;
  }

  /** Label over value, `columns` cells a row, inside [x, x + width). Returns the height used. */
  fields(cells: Cell[], columns: number, x = this.left, width = this.width): number {
    const { doc } = this;
    const cellWidth = width / columns;
    const start = this.y;
    for (let i = 0; i < cells.length; i += columns) {
      const row = cells.slice(i, i + columns);
      doc.font('Helvetica').fontSize(8.5);
      const valueHeight = Math.max(...row.map((c) => doc.heightOfString(c.value, { width: cellWidth - 2 * PAD })));
      const height = 9 + valueHeight + 4;
      this.ensure(height);
      row.forEach((cell, k) => {
        const cx = x + k * cellWidth + PAD;
        doc
          .font('Helvetica')
          .fontSize(6.5)
          .fillColor(MUTED)
          .text(cell.label, cx, this.y, { width: cellWidth - 2 * PAD, lineBreak: false });
        doc
          .font(cell.alert ? 'Helvetica-Bold' : 'Helvetica')
          .fontSize(8.5)
          .fillColor(cell.alert ? ALERT : INK)
          .text(cell.value, cx, this.y + 8, { width: cellWidth - 2 * PAD });
      });
      this.y += height;
      doc
        .moveTo(x, this.y - 2)
        .lineTo(x + width, this.y - 2)
        .lineWidth(0.4)
        .strokeColor(RULE)
        .stroke();
    }
    return this.y - start;
  }

  /** Two field grids side by side, each with its own title; the cursor ends under the taller one. */
  twoColumns(left: { title: string; cells: Cell[] }, right: { title: string; cells: Cell[] }, columns = 3): void {
    const half = (this.width - 12) / 2;
    const rows = Math.ceil(Math.max(left.cells.length, right.cells.length) / columns);
    this.ensure(18 + rows * 22);
    const top = this.y;
    let end = top;
    for (const [block, x] of [
      [left, this.left],
      [right, this.left + half + 12],
    ] as const) {
      this.y = top;
      this.subTitle(block.title, x, half);
      // A block not recorded is one note across its half.
      this.fields(block.cells, block.cells.length === 1 ? 1 : columns, x, half);
      end = Math.max(end, this.y);
    }
    this.y = end + 4;
  }

  subTitle(title: string, x = this.left, width = this.width): void {
    const { doc } = this;
    doc.font('Helvetica-Bold').fontSize(8.5).fillColor(ACCENT).text(title, x, this.y, { width, lineBreak: false });
    doc
      .moveTo(x, this.y + 11)
      .lineTo(x + width, this.y + 11)
      .lineWidth(0.8)
      .strokeColor(ACCENT)
      .stroke();
    this.y += 14;
  }

  /** A table whose header repeats on every page it spans. */
  table(columns: Column[], rows: string[][], empty: string): void {
    const { doc } = this;
    const total = columns.reduce((sum, c) => sum + c.weight, 0);
    const widths = columns.map((c) => (c.weight / total) * this.width);
    const header = (): void => {
      doc.rect(this.left, this.y, this.width, 13).fill(ACCENT);
      let x = this.left;
      columns.forEach((c, i) => {
        doc
          .font('Helvetica-Bold')
          .fontSize(7)
          .fillColor('#ffffff')
          .text(c.header, x + PAD, this.y + 3.5, { width: widths[i]! - 2 * PAD, align: c.align ?? 'left', lineBreak: false });
        x += widths[i]!;
      });
      this.y += 13;
    };
    this.ensure(13 + 14);
    header();
    if (rows.length === 0) {
      doc
        .font('Helvetica-Oblique')
        .fontSize(8)
        .fillColor(MUTED)
        .text(empty, this.left + PAD, this.y + 3, { width: this.width });
      this.y += 21;
      return;
    }
    rows.forEach((row, r) => {
      doc.font('Helvetica').fontSize(7.5);
      const height = Math.max(...row.map((v, i) => doc.heightOfString(v, { width: widths[i]! - 2 * PAD }))) + 2 * PAD;
      if (this.ensure(height)) header();
      if (r % 2 === 1) doc.rect(this.left, this.y, this.width, height).fill('#f4f7fa');
      let x = this.left;
      row.forEach((v, i) => {
        doc
          .font('Helvetica')
          .fontSize(7.5)
          .fillColor(INK)
          .text(v, x + PAD, this.y + PAD, { width: widths[i]! - 2 * PAD, align: columns[i]?.align ?? 'left' });
        x += widths[i]!;
      });
      this.y += height;
      doc
        .moveTo(this.left, this.y)
        .lineTo(this.left + this.width, this.y)
        .lineWidth(0.3)
        .strokeColor(RULE)
        .stroke();
    });
    this.y += 6;
  }
}
