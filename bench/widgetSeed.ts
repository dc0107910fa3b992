// The reference records of the widgets' log, created through the real routes while the bootstrap service runs (few and
// cheap, so their events are exactly what the service writes): a location with stations, two shifts, job positions, a
// physician (the bench administrator) and nurses with licences expiring over the coming months, machines, dialyzers,
// products (some below their minimum) and payers. The year of sessions that references them is written in bulk after.
import { signIn } from './scaleQueries.js';
import type { BenchCredentials } from './http.js';

export interface WidgetSeed {
  companyId: string;
  /** The company's calendar day when the log was built: the last day of the year of sessions. */
  today: string;
  locationId: string;
  shiftIds: [string, string];
  /** The bench administrator: the physician who validates. */
  physician: { userId: string; staffId: string };
  nurseStaffIds: string[];
  machineIds: string[];
  dialyzerIds: string[];
}

const NURSES = 30;
const MACHINES = 24;
const DIALYZERS = 48;
const PRODUCTS = 30;
const PAYERS = 6;

const userIdOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

const dayPlus = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export async function seedReferences(base: string, creds: BenchCredentials): Promise<WidgetSeed> {
  const token = await signIn(base, creds);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}${path}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const company = await call('GET', '/empresas/actual');
  const companyId = String(company.id);
  const timeZone = typeof company.timeZone === 'string' ? company.timeZone : 'UTC';
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

  const sede = await call('POST', '/empresas/actual/sedes', { name: 'Sede widgets' });
  const locationId = String(sede.id);
  const sedePath = `/empresas/actual/sedes/${locationId}`;
  const roomId = String((await call('POST', `${sedePath}/salas`, { name: 'Sala 1' })).createdId);
  const stationIds: string[] = [];
  for (let k = 0; k < MACHINES; k++) {
    stationIds.push(String((await call('POST', `${sedePath}/puestos`, { code: `P-${k}`, roomId })).createdId));
  }
  const shift = async (name: string, dialysisStart: string, dialysisEnd: string) =>
    String(
      (
        await call('POST', '/dialisis/turnos', {
          name,
          locationId,
          dialysisStart,
          dialysisEnd,
          cleaningMinutes: 30,
          capacity: 200,
          reservedCapacity: 4,
        })
      ).id,
    );
  const shiftIds: [string, string] = [await shift('Mañana', '07:00', '11:30'), await shift('Tarde', '12:30', '17:00')];

  const position = async (code: string, name: string, body: string, roles: string[], physician: boolean) =>
    String(
      (
        await call('POST', '/cargos-laborales', {
          code,
          name,
          clinical: true,
          licenceRequired: true,
          licensingBody: body,
          suggestedRoles: roles,
          ...(physician ? { physician: true } : {}),
        })
      ).id,
    );
  const nefId = await position('NEF', 'Nefrólogo', 'CMP', ['physician'], true);
  const enfId = await position('ENF', 'Enfermera', 'CEP', ['nurse'], false);
  const staff = async (n: number, positionId: string, licence: { body: string; expiresOn: string }, userId?: string) =>
    String(
      (
        await call('POST', '/colaboradores', {
          document: { type: 'DNI', number: `5${String(n).padStart(7, '0')}` },
          givenNames: 'Rosa Elena',
          familyNames: 'Mamani Quispe',
          positionId,
          profession: 'Licenciada en enfermería',
          licence: { body: licence.body, number: `${licence.body} ${n}`, expiresOn: licence.expiresOn },
          hireDate: '2023-01-15',
          contractType: 'planilla',
          ...(userId ? { userId } : {}),
        })
      ).id,
    );
  const userId = userIdOf(token);
  const physician = { userId, staffId: await staff(0, nefId, { body: 'CMP', expiresOn: '2099-12-31' }, userId) };
  const nurseStaffIds: string[] = [];
  // Licences expiring every ~8 days from today on: the licences-expiring widget has a few in any window.
  for (let k = 1; k <= NURSES; k++) nurseStaffIds.push(await staff(k, enfId, { body: 'CEP', expiresOn: dayPlus(today, 8 * k - 20) }));

  const machineIds: string[] = [];
  for (let k = 0; k < MACHINES; k++) {
    const machine = await call('POST', '/monitores', {
      code: `WM-${k}`,
      serial: `WM-SN-${k}`,
      brand: 'Fresenius',
      model: '5008S',
      locationId,
      stationId: stationIds[k],
      installDate: '2022-06-01',
      warrantyEnd: '2027-06-01',
      isolation: 'none',
    });
    machineIds.push(String(machine.id));
  }
  const dialyzerIds: string[] = [];
  for (let k = 0; k < DIALYZERS; k++) {
    const body = {
      model: 'FX80',
      surfaceM2: 1.8,
      flux: 'high',
      membrane: 'Helixone',
      lot: `L-${k % 4}`,
      serial: `WD-${k}`,
      reusable: true,
    };
    dialyzerIds.push(String((await call('POST', '/filtros-dialisis', body)).id));
  }

  const warehouse = await call('POST', '/productos/almacenes', { locationId, code: 'FAR', name: 'Farmacia', kind: 'pharmacy' });
  for (let k = 0; k < PRODUCTS; k++) {
    const product = await call('POST', '/productos', {
      code: `WP-${k}`,
      name: `Suero fisiológico 0.9 % 1 L (${k})`,
      category: 'saline',
      unit: 'bag',
      minimumStock: 100,
      reusable: false,
      lotTracked: false,
      expiryTracked: false,
      prescriptionDrug: false,
    });
    // A third of the products below their minimum.
    const quantity = k % 3 === 0 ? 40 : 500;
    await call('POST', `/productos/${String(product.id)}/ingresos`, {
      warehouseId: warehouse.id,
      quantity,
      supplier: 'B. Braun',
      documentNumber: `WF-${k}`,
    });
  }
  for (let k = 0; k < PAYERS; k++) {
    await call('POST', '/clientes', {
      legalName: `Aseguradora widgets ${k}`,
      tradeName: `Aseguradora ${k}`,
      payerType: 'private-insurer',
      country: 'US',
      taxId: { type: 'OTHER', number: `WX-${k}` },
      fiscalAddress: { line1: 'Av. Javier Prado 100', city: 'Lima' },
      contacts: [],
      billingEmail: 'facturas@aseguradora.example',
    });
  }
  return { companyId, today, locationId, shiftIds, physician, nurseStaffIds, machineIds, dialyzerIds };
}
