// Authenticated "register patient" and "list 50 patients" through the real service, next to a bare Koa
// app answering a small JSON body, in the same run, both as separate processes on loopback.
import fs from 'node:fs';
import path from 'node:path';
import { runLoad, type LoadFigures } from './load.js';
import { startBareKoa, startService } from './processes.js';
import { signInAndSelect } from './signIn.js';

export interface HttpFigures {
  bareKoa: LoadFigures;
  registerPatient: LoadFigures;
  listPatients: LoadFigures;
  hireStaff: LoadFigures;
  listStaff: LoadFigures;
  commandRatio: number;
  queryRatio: number;
}

export interface BenchCredentials {
  email: string;
  password: string;
  totpSecret: string;
}

function staffBody(n: number, positionId: string): string {
  return JSON.stringify({
    document: { type: 'DNI', number: `6${String(n).padStart(7, '0')}` },
    givenNames: 'Rosa Elena',
    familyNames: 'Mamani Quispe',
    positionId,
    profession: 'Licenciada en enfermería',
    licence: { body: 'CEP', number: `CEP ${n}`, expiresOn: '2030-12-31' },
    hireDate: '2024-01-15',
    contractType: 'planilla',
  });
}

function patientBody(n: number): string {
  return JSON.stringify({
    documentType: 'DNI',
    documentNumber: `7${String(n).padStart(7, '0')}`,
    givenNames: 'Rosa Elena',
    familyNames: 'Mamani Flores',
    sex: 'female',
    birthDate: '1958-03-14',
    admissionDate: '2024-06-01',
    etiology: 'hypertensive nephropathy',
    dryWeightKg: 61.5,
  });
}

export async function benchHttp(
  scratch: string,
  ports: { service: number; bare: number },
  env: Record<string, string>,
  creds: BenchCredentials,
  seconds: number,
): Promise<HttpFigures> {
  const bare = await startBareKoa(ports.bare);
  const bareKoa = await runLoad({ scenario: 'bare Koa GET (small JSON)', url: bare.url, durationSeconds: seconds });
  await bare.stop();

  const dataDir = path.join(scratch, 'http');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const service = await startService({ ...env, DATA_DIR: dataDir }, ports.service);
  try {
    const token = await signInAndSelect(service.url, creds.email, creds.password, creds.totpSecret);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // Seed a realistic list so "list 50" reads a page out of many.
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          fetch(`${service.url}/pacientes`, { method: 'POST', headers: auth, body: patientBody(i + k) }).then((r) => {
            if (r.status !== 201) throw new Error(`seeding answered ${r.status}`);
          }),
        ),
      );
    }
    let n = 100_000;
    const registerPatient = await runLoad({
      scenario: 'POST /pacientes (register)',
      url: `${service.url}/pacientes`,
      method: 'POST',
      headers: auth,
      body: () => patientBody(n++),
      durationSeconds: seconds,
    });
    const listPatients = await runLoad({
      scenario: 'GET /pacientes?limit=50',
      url: `${service.url}/pacientes?limit=50`,
      headers: auth,
      durationSeconds: seconds,
    });
    // Colaboradores: its main command (hire: two guard claims, then the record) and its main list.
    const position = await fetch(`${service.url}/cargos-laborales`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        code: 'ENF',
        name: 'Enfermera',
        clinical: true,
        licenceRequired: true,
        licensingBody: 'CEP',
        suggestedRoles: ['nurse'],
      }),
    });
    if (position.status !== 201) throw new Error(`creating the job position answered ${position.status}`);
    const positionId = ((await position.json()) as { id: string }).id;
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          fetch(`${service.url}/colaboradores`, { method: 'POST', headers: auth, body: staffBody(i + k, positionId) }).then((r) => {
            if (r.status !== 201) throw new Error(`seeding staff answered ${r.status}`);
          }),
        ),
      );
    }
    let m = 100_000;
    const hireStaff = await runLoad({
      scenario: 'POST /colaboradores (hire)',
      url: `${service.url}/colaboradores`,
      method: 'POST',
      headers: auth,
      body: () => staffBody(m++, positionId),
      durationSeconds: seconds,
    });
    const listStaff = await runLoad({
      scenario: 'GET /colaboradores?limit=50',
      url: `${service.url}/colaboradores?limit=50`,
      headers: auth,
      durationSeconds: seconds,
    });
    return {
      bareKoa,
      registerPatient,
      listPatients,
      hireStaff,
      listStaff,
      commandRatio: Number((registerPatient.requestsPerSecond / bareKoa.requestsPerSecond).toFixed(2)),
      queryRatio: Number((listPatients.requestsPerSecond / bareKoa.requestsPerSecond).toFixed(2)),
    };
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
