// Productos and Clientes hot paths through the real service: an issue from stock (spread over 50 products, so it
// measures the kardex write, not one stream's contention), the product list, a payer's registration and the payer list.
import { runLoad, type LoadFigures } from './load.js';

export interface SuppliesFigures {
  issueStock: LoadFigures;
  listProducts: LoadFigures;
  registerClient: LoadFigures;
  listClients: LoadFigures;
}

const PRODUCTS = 50;

/** Product `<prefix>-<k>`, a bag of saline (bench/lists.ts and the soak seed with these too). */
export const productBody = (k: number, prefix = 'SF'): Record<string, unknown> => ({
  code: `${prefix}-${k}`,
  name: `Suero fisiológico 0.9 % 1 L (${k})`,
  category: 'saline',
  unit: 'bag',
  minimumStock: 10,
  reusable: false,
  lotTracked: false,
  expiryTracked: false,
  prescriptionDrug: false,
});

/** Payer number `c`, its tax id `BX-<c>`. */
export const clientBody = (c: number): Record<string, unknown> => ({
  legalName: `Aseguradora ${c}`,
  tradeName: `Aseguradora ${c}`,
  payerType: 'private-insurer',
  country: 'US',
  taxId: { type: 'OTHER', number: `BX-${c}` },
  fiscalAddress: { line1: 'Av. Javier Prado 100', city: 'Lima' },
  contacts: [],
  billingEmail: 'facturas@aseguradora.example',
});

export async function benchSupplies(base: string, token: string, locationId: string, seconds: number): Promise<SuppliesFigures> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`POST ${path} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const warehouse = await post('/productos/almacenes', { locationId, code: 'FAR', name: 'Farmacia', kind: 'pharmacy' });
  const productIds: string[] = [];
  for (let k = 0; k < PRODUCTS; k++) {
    const product = await post('/productos', productBody(k));
    await post(`/productos/${String(product.id)}/ingresos`, {
      warehouseId: warehouse.id,
      quantity: 1_000_000,
      supplier: 'B. Braun',
      documentNumber: `F-${k}`,
    });
    productIds.push(String(product.id));
  }
  let p = 0;
  const issueStock = await runLoad({
    scenario: `POST /productos/{id}/salidas (issue, ${PRODUCTS} products)`,
    url: `${base}/productos/${productIds[0]!}/salidas`,
    method: 'POST',
    headers: auth,
    path: () => `/productos/${productIds[p++ % productIds.length]!}/salidas`,
    body: () => JSON.stringify({ warehouseId: warehouse.id, quantity: 1, reason: 'Benchmark' }),
    durationSeconds: seconds,
  });
  const listProducts = await runLoad({
    scenario: 'GET /productos?limit=50',
    url: `${base}/productos?limit=50`,
    headers: auth,
    durationSeconds: seconds,
  });
  let c = 0;
  const registerClient = await runLoad({
    scenario: 'POST /clientes (register a payer)',
    url: `${base}/clientes`,
    method: 'POST',
    headers: auth,
    body: () => JSON.stringify(clientBody(c++)),
    durationSeconds: seconds,
  });
  const listClients = await runLoad({
    scenario: 'GET /clientes?limit=50',
    url: `${base}/clientes?limit=50`,
    headers: auth,
    durationSeconds: seconds,
  });
  return { issueStock, listProducts, registerClient, listClients };
}
