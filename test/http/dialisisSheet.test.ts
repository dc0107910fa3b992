// The session sheet PDF, read back as a person would: the text pdf.js finds on each page, and page 1 as a picture
// (SHEET_PNG=1 writes /tmp/sheet-page1.png to look at). The HTTP route is the lead's; this calls the renderer.
import assert from 'node:assert/strict';
import { renderSessionSheet } from '../../src/queries/dialisis/sessionSheet/renderSessionSheet.js';
import { fullSheet, readingsEvery } from './dialisisSheetFixture.js';
import { allText, open, pageItems, writePng } from './pdfRead.js';

describe('Dialisis session sheet PDF', () => {
  it('shows the patient, every section, the readings, the complication, the amendment, the signatures and the chart legend', async () => {
    const pdf = await renderSessionSheet(fullSheet());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    const doc = await open(pdf);
    // Written first, so a failing assertion still leaves the picture to look at.
    for (let page = 1; process.env.SHEET_PNG === '1' && page <= doc.numPages; page++)
      await writePng(doc, page, `/tmp/sheet-page${page}.png`);
    const text = await allText(doc);
    for (const expected of [
      'Hoja de hemodiálisis',
      'María José Quispe Ñahui',
      'DNI 45678912',
      'Historia clínica HC-2024-0153',
      'Centro de Hemodiálisis Santa Rosa S.A.C.',
      'PACIENTE',
      'PRE-DIÁLISIS Y CONTROLES DE SEGURIDAD',
      'CONTROLES INTRADIÁLISIS',
      'COMPLICACIONES',
      'MEDICACIÓN ADMINISTRADA',
      'POST-DIÁLISIS Y VALORES DERIVADOS',
      'FIRMAS',
      'ENMIENDAS Y ADENDAS',
      // The chart's legend.
      'PA sistólica (mmHg)',
      'PA diastólica (mmHg)',
      'Frecuencia cardíaca (lpm)',
      'UF acumulada (mL, eje derecho)',
      // The hypotension reading at 08:15 Lima time, as one table row: time, BP, HR, Qb, venous pressure, TMP, UF, note.
      '08:15 92/58 99 350 140 98 1600 Paciente refiere mareo; se coloca en Trendelenburg',
      // The complication and the medications.
      '08:20 Hipotensión Moderada Trendelenburg, bolo de salino 200 mL, UF suspendida 15 min PA recuperada a 118/70 en 15 min',
      'Epoetina alfa 4000 UI IV (línea venosa) 09:55 EPO-2311-A Sí',
      'Hierro sacarosa 100 mg IV 09:55 — No — Ferritina > 800 ng/mL',
      // Derived values with their flag, signatures with licences, the amendment with before -> after.
      'Alertas clínicas: Tasa de UF sobre el máximo (14.3; umbral 13) · Caída de la PA sistólica en el control 5 (60; umbral 20)',
      'Lic. Rosa Huamán Torres',
      'Colegiatura / licencia: CEP 045123',
      'Dr. Jorge Salazar Ríos',
      'Colegiatura / licencia: CMP 031245',
      'Enmienda Post-diálisis Error de transcripción del peso post Peso báscula (kg): 68.4 -> 68.2',
      'Reducir UF objetivo a 3 L en la próxima sesión.',
      'Generado el 10/03/2025 11:05',
    ]) {
      assert.ok(text.includes(expected), `the sheet shows "${expected}"`);
    }
    assert.match(text, /Página 1 de \d/);
  });

  it('takes its creation date from generatedAt, so the same sheet renders to the same bytes', async () => {
    const first = await renderSessionSheet(fullSheet());
    const again = await renderSessionSheet(fullSheet());
    const { info } = (await (await open(first)).getMetadata()) as unknown as { info: Record<string, unknown> };
    assert.match(String(info.CreationDate), /^D:20250310160500/);
    assert.ok(first.equals(again));
  });

  it('draws the chart frame with "Sin controles registrados" when the session has no readings', async () => {
    const doc = await open(await renderSessionSheet(fullSheet({ readings: [], complications: [] })));
    const empty = (await pageItems(doc, 1)).filter((i) => i.str === 'Sin controles registrados');
    // Once large in the chart area, once in the empty readings table.
    assert.equal(empty.length, 2);
    assert.ok(empty.some((i) => Math.round(i.height) === 10));
    assert.ok((await allText(doc)).includes('PA sistólica (mmHg)'));
  });

  it('runs onto more pages when there are 60 readings, repeating the table header and numbering every page', async () => {
    const doc = await open(await renderSessionSheet(fullSheet({ readings: readingsEvery(60, 5) })));
    assert.ok(doc.numPages > 1, `${doc.numPages} pages`);
    const second = (await pageItems(doc, 2)).map((i) => i.str);
    assert.ok(second.includes('PV (mmHg)'), 'the readings header repeats on page 2');
    assert.ok(second.includes(`Página 2 de ${doc.numPages}`));
    const text = await allText(doc);
    // The 60th reading (295 min after 06:15) and the sections after the table are all there.
    assert.ok(text.includes('11:10'));
    for (const title of ['FIRMAS', 'ENMIENDAS Y ADENDAS']) assert.ok(text.includes(title));
  });

  it('prints a code it does not know as given, a missing block as not recorded, the isolation and the interruption', async () => {
    const sheet = fullSheet({ pre: null, post: null, derived: null, prescription: null });
    sheet.complications = [{ at: sheet.complications[0]!.at, code: 'new-code', severity: 'mild' }];
    sheet.signatures = { nurse: null, physician: null };
    sheet.patient.isolation = 'HBsAg+ — máquina dedicada';
    sheet.session = { ...sheet.session, status: 'interrupted', interruption: { reasonCode: 'hemodynamic-instability', note: 'PAS 70' } };
    const text = await allText(await open(await renderSessionSheet(sheet)));
    for (const expected of [
      'new-code',
      'Leve',
      'Sin prescripción registrada',
      'Sin registro',
      'Pendiente de firma',
      'HBsAg+ — máquina dedicada',
      'Regular · Interrumpida',
      'Inestabilidad hemodinámica — PAS 70',
    ]) {
      assert.ok(text.includes(expected), `the sheet shows "${expected}"`);
    }
  });
});
