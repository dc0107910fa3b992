// A complete session sheet as the lead's query would hand it: a chronic patient's Monday morning in Lima, one hypotension.
import type { SessionSheet, SheetReading } from '../../src/queries/dialisis/sessionSheet/sessionSheet.js';

const START = Date.parse('2025-03-10T11:15:00Z');
const at = (minutes: number): string => new Date(START + minutes * 60_000).toISOString();

/** Readings every `every` minutes from the start, with a hypotension dip at the fifth (two hours in, at every 30 min). */
export function readingsEvery(count: number, every = 30): SheetReading[] {
  return Array.from({ length: count }, (_, i) => {
    const dip = i === 4 ? 40 : 0;
    return {
      at: at(i * every),
      bloodPressure: { systolic: 148 - Math.min(i, 8) * 4 - dip, diastolic: 86 - Math.min(i, 8) * 2 - Math.round(dip / 2) },
      pulse: 78 + (i % 3) * 3 + (dip ? 18 : 0),
      qbMlMin: i === 0 ? 300 : 350,
      venousPressureMmHg: 140 + (i % 4) * 5,
      tmpMmHg: 90 + i * 2,
      cumulativeUfMl: Math.round((i * 3200) / Math.max(1, count - 1) / 10) * 10,
      ...(dip ? { note: 'Paciente refiere mareo; se coloca en Trendelenburg' } : {}),
    };
  });
}

export function fullSheet(overrides: Partial<SessionSheet> = {}): SessionSheet {
  return {
    generatedAt: '2025-03-10T16:05:00Z',
    timeZone: 'America/Lima',
    company: { name: 'Centro de Hemodiálisis Santa Rosa S.A.C.', taxId: '20512345678' },
    location: { name: 'Sede Miraflores', address: 'Av. José Larco 1234, Miraflores, Lima' },
    patient: {
      fullName: 'María José Quispe Ñahui',
      documentType: 'DNI',
      documentNumber: '45678912',
      secondIdentifier: { type: 'Historia clínica', value: 'HC-2024-0153' },
      birthDate: '1968-04-12',
      isolation: null,
      serology: [
        { marker: 'HBsAg', result: 'negative', on: '2025-01-15' },
        { marker: 'Anti-HCV', result: 'negative', on: '2025-01-15' },
        { marker: 'VIH', result: 'negative', on: '2025-01-15' },
      ],
    },
    session: {
      id: 'ses-2025-03-10-0007',
      date: '2025-03-10',
      shift: 'Turno mañana',
      kind: 'planned',
      status: 'validated',
      checkedInAt: at(-35),
      startedAt: at(0),
      endedAt: at(240),
      effectiveMinutes: 240,
      station: 'Puesto 7',
      machineCode: 'M-5008-07',
      dialyzer: { serial: 'FX80-A19231', model: 'FX80', useNumber: 4 },
      bloodlines: { arterial: { code: 'LA-88231', useNumber: 4 }, venous: { code: 'LV-88232', useNumber: 4 } },
    },
    prescription: {
      version: 3,
      modality: 'HD',
      durationMinutes: 240,
      qbMlMin: 350,
      qdMlMin: 500,
      dialyzerModel: 'Fresenius FX80 (1.8 m², alto flujo)',
      dialysate: 'Na 138 · K 2.0 · Ca 1.25 · HCO3 32 · 36.5 °C',
      anticoagulation: 'Heparina 2000 UI bolo + 1000 UI/h; suspender 30 min antes del fin',
      dryWeightKg: 66.5,
    },
    pre: {
      scaleWeightKg: 71.6,
      wheelchairKg: 0,
      clothesKg: 1.1,
      netWeightKg: 70.5,
      bloodPressure: { systolic: 152, diastolic: 88 },
      pulse: 80,
      temperatureC: 36.6,
      spo2: 97,
      idwgKg: 3.2,
      ufGoalL: 4.3,
      preBunMgDl: 72,
    },
    safetyChecks: {
      conductivityMsCm: 13.9,
      conductivityTargetMsCm: 14.0,
      dialysatePh: 7.2,
      dialysateTemperatureC: 36.5,
      residualDisinfectantAbsent: true,
      airDetectorTested: true,
      bloodLeakDetectorArmed: true,
      ufControlTested: true,
      alarmsTested: true,
      checkedBy: 'Lic. Rosa Huamán',
      checkedAt: at(-20),
    },
    readings: readingsEvery(9),
    complications: [
      {
        at: at(125),
        code: 'hypotension',
        severity: 'moderate',
        intervention: 'Trendelenburg, bolo de salino 200 mL, UF suspendida 15 min',
        outcome: 'PA recuperada a 118/70 en 15 min',
      },
    ],
    medications: [
      { drug: 'Epoetina alfa', dose: 4000, unit: 'UI', route: 'iv-venous-line', at: at(220), lot: 'EPO-2311-A', given: true },
      { drug: 'Hierro sacarosa', dose: 100, unit: 'mg', route: 'iv', at: at(220), given: false, reasonNotGiven: 'Ferritina > 800 ng/mL' },
    ],
    post: {
      scaleWeightKg: 68.2,
      netWeightKg: 67.1,
      bloodPressure: { systolic: 124, diastolic: 74 },
      pulse: 76,
      temperatureC: 36.4,
      machineUfMl: 3200,
      bloodProcessedL: 82.4,
      machineKtV: 1.38,
      machineUrrPercent: 71,
      hemostasisMinutes: 10,
      accessState: 'FAV con frémito',
      conditionAtDischarge: 'Estable, deambula',
      postBunMgDl: 21,
    },
    derived: {
      urrPercent: 70.8,
      spKtV: 1.45,
      eKtV: 1.26,
      ufRateMlKgH: 14.3,
      achievedUfL: 3.4,
      machineUfL: 3.2,
      flags: [
        { code: 'uf-rate-above-maximum', field: 'ufRateMlKgH', value: 14.3, threshold: 13 },
        { code: 'systolic-fall', field: 'readings/4/bloodPressure/systolic', value: 60, threshold: 20 },
      ],
    },
    signatures: {
      nurse: { name: 'Lic. Rosa Huamán Torres', licence: 'CEP 045123', at: at(255) },
      physician: { name: 'Dr. Jorge Salazar Ríos', licence: 'CMP 031245', at: at(290) },
    },
    amendments: [
      {
        at: at(280),
        by: 'Lic. Rosa Huamán Torres',
        block: 'post',
        reason: 'Error de transcripción del peso post',
        changes: [{ field: 'scaleWeightKg', before: 68.4, after: 68.2 }],
      },
    ],
    addenda: [
      { at: at(300), by: 'Dr. Jorge Salazar Ríos', reason: 'Indicación médica', text: 'Reducir UF objetivo a 3 L en la próxima sesión.' },
    ],
    ...overrides,
  };
}
