// The session sheet as a PDF (issue 10 item 9): a pure function of the SessionSheet, A4, Spanish, paged with footers.
import PDFDocument from 'pdfkit';
import { heading, patientBlock, postAndDerived, preAndChecks, sessionAndPrescription } from './sheetBlocks.js';
import { writeFooters } from './sheetFooter.js';
import { FOOTER_ROOM, MARGIN, SheetWriter } from './sheetLayout.js';
import { amendmentsBlock, complicationsBlock, medicationsBlock, readingsBlock, signaturesBlock } from './sheetRecords.js';
import { dateTime, day } from './sheetText.js';
import type { SessionSheet } from './sessionSheet.js';

export type { SessionSheet } from './sessionSheet.js';

export async function renderSessionSheet(sheet: SessionSheet): Promise<Buffer> {
  const generatedAt = new Date(sheet.generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: FOOTER_ROOM },
    // Footers need every page open until the end, when the page count is known.
    bufferPages: true,
    info: {
      Title: `Hoja de hemodiálisis ${sheet.patient.fullName} ${sheet.session.date}`,
      Author: sheet.company.name,
      Subject: `Sesión ${sheet.session.id}`,
      CreationDate: generatedAt,
      ModDate: generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const w = new SheetWriter(doc);
  heading(w, sheet);
  patientBlock(w, sheet);
  sessionAndPrescription(w, sheet);
  preAndChecks(w, sheet);
  readingsBlock(w, sheet);
  complicationsBlock(w, sheet);
  medicationsBlock(w, sheet);
  postAndDerived(w, sheet);
  signaturesBlock(w, sheet);
  amendmentsBlock(w, sheet);
  const who = `${sheet.patient.fullName} · ${sheet.patient.documentType} ${sheet.patient.documentNumber} · Sesión ${day(sheet.session.date)} ${sheet.session.shift}`;
  writeFooters(doc, who, `Generado el ${dateTime(sheet.generatedAt, sheet.timeZone)} · ${sheet.company.name}`);
  doc.end();
  return done;
}
