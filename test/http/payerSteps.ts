// Steps the payer tests share: a client with an open-ended contract in force, and a patient it covers.
import { clientBody, contractBody } from './clientesWorld.js';
import { expectStatus, type DialisisWorld, type Json } from './dialisisWorld.js';
import type { SessionSteps } from './dialisisSessionSteps.js';

/** A payer with a contract in force from last year on, open-ended (the contract's terms overridden): its id. */
export async function openPayer(w: DialisisWorld, s: SessionSteps, contract: Json = {}): Promise<string> {
  const clientId = expectStatus(await s.post(w.a, '/clientes', clientBody()), 201).body.id as string;
  const terms = { ...contractBody({ validFrom: w.dateIn(-365), ...contract }) };
  delete terms.validTo;
  expectStatus(await s.post(w.a, `/clientes/${clientId}/contratos`, terms), 201);
  return clientId;
}

/** A prescribed patient covered by the payer since last year: its id. */
export const coveredPatient = (w: DialisisWorld, s: SessionSteps, clientId: string, memberNumber: string): Promise<string> =>
  s.prescribedPatient({ coverages: [{ clientId, memberNumber, validFrom: w.dateIn(-365) }] });
