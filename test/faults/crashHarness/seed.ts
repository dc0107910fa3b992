// What the crash rounds need in the company, seeded once through the real routes as the bootstrap administrator: a
// location with a station, the administrator's physician staff record (to prescribe), a payer whose contract blocks a
// session without authorization, a supply product in two warehouses that the default kit consumes, a reusable dialyzer
// product to issue as serialized items, and a webhook endpoint (the harness's own receiver) for patient events.
import type { Api, Json } from './api.js';
import { prescriptionBody } from '../../../bench/dialisis.js';
import { seedPhysician } from '../../../bench/dialisisDay.js';

export interface Company {
  station: { locationId: string; stationId: string };
  physicianStaffId: string;
  clientId: string;
  /** The supply the default kit consumes one of per session; transfers move it between the warehouses. */
  supplyId: string;
  warehouses: [string, string];
  dialyzerProductId: string;
  hookId: string;
}

/** Units of the supply each warehouse receives at the seed (never exhausted by a run). */
export const SUPPLY_RECEIVED = 100_000;
export const DIALYZERS_RECEIVED = 5_000;

export const prescription = (validFrom: string): Json => prescriptionBody(validFrom);

export const dayOf = (d: Date, days = 0): string => new Date(d.getTime() + days * 86_400_000).toISOString().slice(0, 10);

export async function seedCompany(api: Api, receiverUrl: string): Promise<Company> {
  const post = (path: string, body: unknown) => api.expect(201, 'POST', path, body);
  const locationId = (await post('/empresas/actual/sedes', { name: 'Sede Crash' })).id as string;
  const base = `/empresas/actual/sedes/${locationId}`;
  const roomId = (await post(`${base}/salas`, { name: 'Sala A' })).createdId as string;
  const stationId = (await post(`${base}/puestos`, { code: 'P-01', roomId })).createdId as string;
  const physician = await seedPhysician((method, path, body) => api.expect(201, method, path, body), api.userId);
  const clientId = (
    await post('/clientes', {
      legalName: 'Seguro Crash',
      tradeName: 'Seguro Crash',
      payerType: 'private-insurer',
      country: 'US',
      taxId: { type: 'OTHER', number: 'CRASH-1' },
      fiscalAddress: { line1: 'Av. Javier Prado 100', city: 'Lima' },
      contacts: [],
      billingEmail: 'facturas@seguro.example',
    })
  ).id as string;
  await post(`/clientes/${clientId}/contratos`, {
    number: 'C-CRASH',
    serviceCode: '90935',
    validFrom: dayOf(api.now(), -365),
    rate: { amount: '350.00', currency: 'PEN', taxIncluded: true },
    includes: ['dialyzer', 'bloodlines', 'epo-iron'],
    authorizationRequired: true,
    withoutAuthorization: 'block',
    sessionsPerMonthCap: 13,
    paymentTermsDays: 60,
  });
  const warehouse = async (code: string) =>
    (await post('/productos/almacenes', { locationId, code, name: `Almacén ${code}`, kind: 'pharmacy' })).id as string;
  const warehouses: [string, string] = [await warehouse('ALM-1'), await warehouse('ALM-2')];
  const supplyId = (
    await post('/productos', {
      code: 'SF-1',
      name: 'Suero fisiológico 0.9 % 1 L',
      category: 'saline',
      unit: 'bag',
      minimumStock: 10,
      reusable: false,
      lotTracked: false,
      expiryTracked: false,
      prescriptionDrug: false,
    })
  ).id as string;
  for (const [k, w] of warehouses.entries())
    await post(`/productos/${supplyId}/ingresos`, {
      warehouseId: w,
      quantity: SUPPLY_RECEIVED,
      supplier: 'B. Braun',
      documentNumber: `F-${k}`,
    });
  await api.expect(200, 'PUT', '/productos/kits/predeterminado', {
    warehouseId: warehouses[0],
    items: [{ productId: supplyId, quantity: 1 }],
  });
  const dialyzerProductId = (
    await post('/productos', {
      code: 'FX80',
      name: 'Dialyzer FX80',
      category: 'dialyzer',
      unit: 'unit',
      minimumStock: 1,
      reusable: true,
      lotTracked: true,
      expiryTracked: true,
      prescriptionDrug: false,
    })
  ).id as string;
  await post(`/productos/${dialyzerProductId}/ingresos`, {
    warehouseId: warehouses[0],
    quantity: DIALYZERS_RECEIVED,
    lot: 'DZ-1',
    expiry: dayOf(api.now(), 700),
    supplier: 'Fresenius',
    documentNumber: 'F-DZ',
  });
  const hook = await post('/sistema/webhooks', { url: receiverUrl, description: 'crash harness', eventTypes: ['PatientRegistered'] });
  return {
    station: { locationId, stationId },
    physicianStaffId: physician.id as string,
    clientId,
    supplyId,
    warehouses,
    dialyzerProductId,
    hookId: (hook.endpoint as Json).id as string,
  };
}
