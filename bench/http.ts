// Authenticated "register patient" and "list 50 patients" through the real service, next to a bare Koa
// app answering a small JSON body, in the same run, both as separate processes on loopback.
import fs from 'node:fs';
import path from 'node:path';
import { runLoad, type LoadFigures } from './load.js';
import { startBareKoa, startService } from './processes.js';
import { signInAndSelect } from './signIn.js';
import { benchDialisis, type DialisisFigures } from './dialisis.js';
import { benchSupplies, type SuppliesFigures } from './supplies.js';
import { benchPeers, type PeerFigures } from './peersRun.js';

export interface HttpFigures {
  bareKoa: LoadFigures;
  registerPatient: LoadFigures;
  listPatients: LoadFigures;
  hireStaff: LoadFigures;
  listStaff: LoadFigures;
  registerMachine: LoadFigures;
  listMachines: LoadFigures;
  receiveDialyzer: LoadFigures;
  listDialyzers: LoadFigures;
  dialisis: DialisisFigures;
  supplies: SuppliesFigures;
  peers: PeerFigures;
  commandRatio: number;
  queryRatio: number;
}

export interface BenchCredentials {
  email: string;
  password: string;
  totpSecret: string;
}

/** A hire of staff member `n` into the job position (bench/lists.ts seeds its list with these too). */
export function staffBody(n: number, positionId: string): string {
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

/** A machine `M-<k>` on a station of a location. */
export const machineRegistration = (k: number, locationId: string, stationId: string): string =>
  JSON.stringify({
    code: `M-${k}`,
    serial: `SN-${k}`,
    brand: 'Fresenius',
    model: '4008S',
    locationId,
    stationId,
    installDate: '2024-06-01',
    warrantyEnd: '2027-06-01',
    isolation: 'none',
  });

/** A dialyzer received with serial `D-<k>`. */
export const dialyzerBody = (k: number): string =>
  JSON.stringify({ model: 'FX80', surfaceM2: 1.8, flux: 'high', membrane: 'Helixone', lot: 'L-1', serial: `D-${k}`, reusable: true });

/** A patient registration, its document number `<prefix><n>` (each section its own prefix: no clash in one log). */
export function patientBody(n: number, prefix = '7'): string {
  return JSON.stringify({
    documentType: 'DNI',
    documentNumber: `${prefix}${String(n).padStart(7, '0')}`,
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
    // Peers in the same run, on the same documents: the list floor and a plain Koa + SQLite CRUD app.
    const page = await (await fetch(`${service.url}/pacientes?limit=50`, { headers: auth })).json();
    const peers = await benchPeers(scratch, ports.bare, seconds, { page, register: registerPatient, list: listPatients }, patientBody);
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
    // Equipment: Monitores (register: two guard claims and the station check; list by code) and FiltrosDialisis
    // (receive: a serial claim; list by serial).
    const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const r = await fetch(`${service.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      if (r.status !== 201) throw new Error(`POST ${path} answered ${r.status}`);
      return (await r.json()) as Record<string, unknown>;
    };
    const sede = await post('/empresas/actual/sedes', { name: 'Sede benchmark' });
    const sedePath = `/empresas/actual/sedes/${String(sede.id)}`;
    const roomId = (await post(`${sedePath}/salas`, { name: 'Sala 1' })).createdId as string;
    const stationId = (await post(`${sedePath}/puestos`, { code: 'P-01', roomId })).createdId as string;
    const machineBody = (k: number) => machineRegistration(k, sede.id as string, stationId);
    let e = 100_000;
    const registerMachine = await runLoad({
      scenario: 'POST /monitores (register)',
      url: `${service.url}/monitores`,
      method: 'POST',
      headers: auth,
      body: () => machineBody(e++),
      durationSeconds: seconds,
    });
    const listMachines = await runLoad({
      scenario: 'GET /monitores?limit=50',
      url: `${service.url}/monitores?limit=50`,
      headers: auth,
      durationSeconds: seconds,
    });
    const receiveDialyzer = await runLoad({
      scenario: 'POST /filtros-dialisis (receive)',
      url: `${service.url}/filtros-dialisis`,
      method: 'POST',
      headers: auth,
      body: () => dialyzerBody(e++),
      durationSeconds: seconds,
    });
    const listDialyzers = await runLoad({
      scenario: 'GET /filtros-dialisis?limit=50',
      url: `${service.url}/filtros-dialisis?limit=50`,
      headers: auth,
      durationSeconds: seconds,
    });
    const dialisis = await benchDialisis(service.url, token, { locationId: sede.id as string, stationId }, seconds);
    const supplies = await benchSupplies(service.url, token, sede.id as string, seconds);
    return {
      peers,
      dialisis,
      supplies,
      registerMachine,
      listMachines,
      receiveDialyzer,
      listDialyzers,
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
