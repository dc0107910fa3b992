// A coverage that names a payer must name a client of the company (Clientes), checked on the client's stream (strong);
// another company's patient answers 404 first. Orchestration, not a route's: no route file loads a write model.
import { DomainError } from '../decider.js';
import { loadAggregate } from '../handleCommand.js';
import { clientExists } from '../clientes/clientWrites.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { patientDecider } from './patientDecider.js';

/**
 * 422 naming each coverage whose clientId is not one of the company's clients; `at(index)` is where each coverage is
 * in the body ('' for the body itself). With `patientId`, another company's patient is 404 before the body is judged.
 */
export async function mustBeCompanyClients(
  events: EventStore,
  tenantId: string,
  coverages: readonly { clientId?: string | undefined }[],
  at: (index: number) => string,
  patientId?: string,
): Promise<void> {
  if (!coverages.some((c) => c.clientId)) return;
  if (patientId) {
    const { state } = await loadAggregate(events, patientDecider, streamName(tenantId, patientDecider.category, patientId));
    if (!state.exists) throw new DomainError('not-found', 'Patient not found', 404);
  }
  const errors: { field: string; message: string }[] = [];
  for (const [index, coverage] of coverages.entries()) {
    if (coverage.clientId && !(await clientExists({ events }, tenantId, coverage.clientId))) {
      const field = at(index) ? `${at(index)}/clientId` : 'clientId';
      errors.push({ field, message: 'no such client (payer) in this company' });
    }
  }
  if (errors.length === 0) return;
  const detail = errors.map((e) => `/body/${e.field}: ${e.message}`).join('; ');
  throw new DomainError('validation-failed', detail, 422, { errors });
}
