// Reading a generated PDF as a person would: the text pdf.js finds on each page, and a page as a PNG picture.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';

const fontsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;

export async function open(pdf: Buffer): Promise<PDFDocumentProxy> {
  return getDocument({ data: new Uint8Array(pdf), standardFontDataUrl: fontsDir, verbosity: 0 }).promise;
}

export async function pageItems(doc: PDFDocumentProxy, page: number): Promise<TextItem[]> {
  const content = await (await doc.getPage(page)).getTextContent();
  return content.items.filter((item): item is TextItem => 'str' in item && item.str.trim() !== '');
}

export async function allText(doc: PDFDocumentProxy): Promise<string> {
  const pages: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) pages.push((await pageItems(doc, p)).map((i) => i.str).join(' '));
  // Lines of a wrapped cell come one after the other: joined by a space they read as the value written.
  return pages.join(' ').replace(/\s+/g, ' ');
}

export async function writePng(doc: PDFDocumentProxy, page: number, file: string): Promise<void> {
  const pdfPage = await doc.getPage(page);
  const viewport = pdfPage.getViewport({ scale: 2 });
  const canvas = createCanvas(viewport.width, viewport.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, viewport.width, viewport.height);
  await pdfPage.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  writeFileSync(file, canvas.toBuffer('image/png'));
}
