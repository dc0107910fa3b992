// The soak's company: a location with a room and a station, a physician's record linked to the administrator, an
// all-day shift, a warehouse with stocked products, patients to list, and a webhook endpoint on the local receiver.
import { patientBody } from '../http.js';
import { seedPhysician, userIdOf } from '../dialisisDay.js';
import { productBody } from '../supplies.js';

export interface SoakWorld {
  locationId: string;
  stationId: string;
  physicianId: string;
  shiftId: string;
  warehouseId: string;
  productIds: string[];
  patientIds: string[];
  webhookId: string;
}

export type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** A caller that throws on any answer >= 300 (seeding must not fail quietly). */
export function seedCaller(base: string, token: () => string): Call {
  return async (method, path, body) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
    const text = await r.text();
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
}

export const SEED_PATIENTS = 100;
const PRODUCTS = 20;

export async function seedSoakCompany(call: Call, token: string, receiverUrl: string): Promise<SoakWorld> {
  const sede = await call('POST', '/empresas/actual/sedes', { name: 'Sede soak' });
  const sedePath = `/empresas/actual/sedes/${String(sede.id)}`;
  const roomId = (await call('POST', `${sedePath}/salas`, { name: 'Sala 1' })).createdId as string;
  const stationId = (await call('POST', `${sedePath}/puestos`, { code: 'P-01', roomId })).createdId as string;
  const physician = await seedPhysician(call, userIdOf(token));
  const shift = await call('POST', '/dialisis/turnos', {
    name: 'Turno soak',
    locationId: sede.id,
    dialysisStart: '00:00',
    dialysisEnd: '23:59',
    cleaningMinutes: 30,
    capacity: 500,
    reservedCapacity: 2,
  });
  const warehouse = await call('POST', '/productos/almacenes', { locationId: sede.id, code: 'FAR', name: 'Farmacia', kind: 'pharmacy' });
  const productIds: string[] = [];
  for (let k = 0; k < PRODUCTS; k++) {
    const product = await call('POST', '/productos', productBody(k, 'SK'));
    await call('POST', `/productos/${String(product.id)}/ingresos`, {
      warehouseId: warehouse.id,
      quantity: 1_000_000,
      supplier: 'B. Braun',
      documentNumber: `F-${k}`,
    });
    productIds.push(String(product.id));
  }
  const patientIds: string[] = [];
  for (let i = 0; i < SEED_PATIENTS; i += 10) {
    const made = await Promise.all(Array.from({ length: 10 }, (_, k) => call('POST', '/pacientes', JSON.parse(patientBody(i + k, '5')))));
    patientIds.push(...made.map((p) => String(p.id)));
  }
  const hook = await call('POST', '/sistema/webhooks', {
    url: receiverUrl,
    description: 'Soak receiver (fails a fifth of first attempts)',
    eventTypes: ['patient', 'dialysisSession'],
  });
  const webhookId = String((hook.endpoint as { id: string }).id);
  return {
    locationId: String(sede.id),
    stationId,
    physicianId: String(physician.id),
    shiftId: String(shift.id),
    warehouseId: String(warehouse.id),
    productIds,
    patientIds,
    webhookId,
  };
}
