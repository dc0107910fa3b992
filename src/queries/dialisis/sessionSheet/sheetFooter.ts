// Page numbers and who/when on every page, written once all pages exist (the document buffers its pages).
import type PDFDocument from 'pdfkit';
import { FOOTER_ROOM, MARGIN, MUTED, RULE } from './sheetLayout.js';

export function writeFooters(doc: InstanceType<typeof PDFDocument>, left: string, generated: string): void {
  const width = doc.page.width - 2 * MARGIN;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const saved = doc.page.margins.bottom;
    // The footer sits inside the bottom margin: with it at zero pdfkit does not open a page for it.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - FOOTER_ROOM + 12;
    doc
      .moveTo(MARGIN, y - 4)
      .lineTo(doc.page.width - MARGIN, y - 4)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.font('Helvetica').fontSize(7).fillColor(MUTED);
    doc.text(left, MARGIN, y, { width: width * 0.6, lineBreak: false });
    doc.text(`Página ${i - range.start + 1} de ${range.count}`, MARGIN, y, { width, align: 'right', lineBreak: false });
    doc.text(generated, MARGIN, y + 9, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = saved;
  }
}
