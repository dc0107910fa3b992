// The printable dialyzer label as a PDF: a QR code of the dialyzer id and what the label must show (domain.md 3.4).
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { DialyzerLabel } from '../../../queries/filtros-dialisis/label.js';

const dateOf = (instant: string | null): string => (instant ? instant.slice(0, 10) : '-');

export async function labelPdf(label: DialyzerLabel): Promise<Buffer> {
  const qr = await QRCode.toBuffer(label.dialyzerId, { type: 'png', margin: 1, width: 140 });
  // Uncompressed content streams: the text stays findable in the file (label printers and tests read it as is).
  const doc = new PDFDocument({ size: [288, 180], margin: 12, compress: false, info: { Title: `Dialyzer ${label.serial}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.image(qr, 12, 12, { width: 90 });
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(label.patientName ?? 'Not assigned', 110, 14, { width: 166 });
  doc.font('Helvetica').fontSize(9);
  doc.text(label.patientDocument ?? '-', { width: 166 });
  doc.moveDown(0.5);
  doc.text(`Uses: ${label.uses}`);
  doc.text(`First use: ${dateOf(label.firstUseAt)}`);
  doc.text(`Last reprocessing: ${dateOf(label.lastReprocessedAt)}`);
  doc.text(`Baseline TCV: ${label.baselineTcvMl === null ? '-' : `${label.baselineTcvMl} mL`}`);
  doc.fontSize(7).text(`${label.model} - ${label.serial}`, 12, 110, { width: 264 });
  doc.text(label.dialyzerId, { width: 264 });
  doc.end();
  return done;
}
