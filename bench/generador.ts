// A company-defined module's hot path next to the built-in one it imitates, in the same run on the same service:
// creating a record and listing 50 (POST/GET /generador/m/{code}) against registering a patient and listing 50
// (POST/GET /pacientes). The issue asks for the module within 20 % of Pacientes; each pair runs twice, alternated.
import fs from 'node:fs';
import path from 'node:path';
import { runLoad, type LoadFigures } from './load.js';
import { startService } from './processes.js';
import { signInAndSelect } from './signIn.js';
import { patientBody, type BenchCredentials } from './http.js';

export const CODE = 'vacunacion-hbv';
const SEED = 1_000;

export interface GeneradorFigures {
  createRecord: LoadFigures;
  registerPatient: LoadFigures;
  listRecords: LoadFigures;
  listPatients: LoadFigures;
  /** Module requests per second over the Pacientes equivalent's (1 = as fast; the issue asks >= 0.8). */
  createRatio: number;
  listRatio: number;
  met: boolean;
}

/** The "Vacunación hepatitis B": patient-linked, dose number, date, lot, anti-HBs titre with unit, a schedule. */
export const HEPATITIS_B_MODULE = {
  code: CODE,
  name: 'Vacunación hepatitis B',
  description: 'Doses of the hepatitis B vaccine and the anti-HBs titre after the schedule',
  patientLinked: true,
  fields: [
    { name: 'doseNumber', label: 'Dosis', type: 'integer', required: true, minimum: 1, maximum: 10 },
    { name: 'administeredOn', label: 'Fecha', type: 'date', required: true },
    { name: 'lot', label: 'Lote', type: 'text', maxLength: 40 },
    { name: 'antiHbsTitre', label: 'Anti-HBs', type: 'number', unit: 'mUI/mL', minimum: 0, maximum: 100000 },
    { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['0-1-6', '0-1-2-12', 'rapid'], required: true },
  ],
  listFields: ['doseNumber', 'administeredOn', 'schedule'],
  filterFields: ['doseNumber', 'schedule', 'administeredOn'],
  sortFields: ['administeredOn', 'doseNumber'],
};

export const doseBody = (patientId: string, n: number): string =>
  JSON.stringify({
    patientId,
    values: { doseNumber: (n % 4) + 1, administeredOn: '2026-03-14', lot: `L-${n % 97}`, antiHbsTitre: 12.5, schedule: '0-1-6' },
  });

export async function benchGenerador(
  scratch: string,
  port: number,
  env: Record<string, string>,
  creds: BenchCredentials,
  seconds: number,
): Promise<GeneradorFigures> {
  const dataDir = path.join(scratch, 'generador');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const service = await startService({ ...env, DATA_DIR: dataDir }, port);
  try {
    const token = await signInAndSelect(service.url, creds.email, creds.password, creds.totpSecret);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (p: string, body: unknown, status = 201): Promise<Record<string, unknown>> => {
      const r = await fetch(`${service.url}${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      if (r.status !== status) throw new Error(`POST ${p} answered ${r.status}: ${await r.text()}`);
      return (await r.json()) as Record<string, unknown>;
    };
    await post('/generador/modulos', HEPATITIS_B_MODULE);
    await post(`/generador/modulos/${CODE}/publicacion`, {}, 200);
    // The same seed on both sides: 1,000 patients, then a dose for each, so both lists read a page out of 1,000.
    const patientIds: string[] = [];
    for (let i = 0; i < SEED; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, (_, k) => post('/pacientes', JSON.parse(patientBody(i + k, '5')))));
      patientIds.push(...batch.map((p) => String(p.id)));
    }
    for (let i = 0; i < SEED; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, k) => post(`/generador/m/${CODE}`, JSON.parse(doseBody(patientIds[i + k]!, i + k)))),
      );

    let n = 200_000;
    let d = 0;
    const register = () =>
      runLoad({
        scenario: 'POST /pacientes (register)',
        url: `${service.url}/pacientes`,
        method: 'POST',
        headers: auth,
        body: () => patientBody(n++, '5'),
        durationSeconds: seconds,
      });
    const create = () =>
      runLoad({
        scenario: `POST /generador/m/${CODE} (create)`,
        url: `${service.url}/generador/m/${CODE}`,
        method: 'POST',
        headers: auth,
        body: () => doseBody(patientIds[d % patientIds.length]!, d++),
        durationSeconds: seconds,
      });
    const listP = () =>
      runLoad({ scenario: 'GET /pacientes?limit=50', url: `${service.url}/pacientes?limit=50`, headers: auth, durationSeconds: seconds });
    const listM = () =>
      runLoad({
        scenario: `GET /generador/m/${CODE}?limit=50`,
        url: `${service.url}/generador/m/${CODE}?limit=50`,
        headers: auth,
        durationSeconds: seconds,
      });
    // Alternated twice so neither side gets the warmer process or the smaller log alone; the better of each is kept.
    const best = (a: LoadFigures, b: LoadFigures) => (a.requestsPerSecond >= b.requestsPerSecond ? a : b);
    const runs = { register: [] as LoadFigures[], create: [] as LoadFigures[], listP: [] as LoadFigures[], listM: [] as LoadFigures[] };
    for (let round = 0; round < 2; round++) {
      runs.register.push(await register());
      runs.create.push(await create());
      runs.listP.push(await listP());
      runs.listM.push(await listM());
    }
    const registerPatient = best(runs.register[0]!, runs.register[1]!);
    const createRecord = best(runs.create[0]!, runs.create[1]!);
    const listPatients = best(runs.listP[0]!, runs.listP[1]!);
    const listRecords = best(runs.listM[0]!, runs.listM[1]!);
    for (const f of [registerPatient, createRecord, listPatients, listRecords])
      if (f.non2xx > 0 || f.errors > 0) throw new Error(`${f.scenario}: ${f.non2xx} non-2xx answers, ${f.errors} errors`);
    const createRatio = Number((createRecord.requestsPerSecond / registerPatient.requestsPerSecond).toFixed(2));
    const listRatio = Number((listRecords.requestsPerSecond / listPatients.requestsPerSecond).toFixed(2));
    return {
      createRecord,
      registerPatient,
      listRecords,
      listPatients,
      createRatio,
      listRatio,
      met: createRatio >= 0.8 && listRatio >= 0.8,
    };
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
