// A coverage that names a payer must name a client of the company (Clientes), checked on its stream.
import { notFoundProblem, ProblemError } from '../../../problems.js';
import { loadAggregate } from '../../../commands/handleCommand.js';
import { patientDecider } from '../../../commands/pacientes/patientDecider.js';
import { streamName } from '../../../stores/eventStore.js';
import { clientExists } from '../../../commands/clientes/clientWrites.js';
import type { RequestContext } from '../../routeTypes.js';
import { tenantCtx } from '../shared/recordSupport.js';

/** 422 naming each coverage whose clientId is not one of the company's clients; `pointer` is where each coverage is. */
export async function mustBeCompanyClients(
  ctx: RequestContext,
  coverages: readonly { clientId?: string | undefined }[],
  pointer: (index: number) => string,
  patientId?: string,
): Promise<void> {
  const tenantId = tenantCtx(ctx).auth.tenantId;
  if (!coverages.some((c) => c.clientId)) return;
  // Another company's patient is 404 before anything about the body is said.
  if (patientId) {
    const { state } = await loadAggregate(ctx.services.events, patientDecider, streamName(tenantId, patientDecider.category, patientId));
    if (!state.exists) throw notFoundProblem('Patient not found');
  }
  const errors: { pointer: string; message: string }[] = [];
  for (const [index, coverage] of coverages.entries()) {
    if (coverage.clientId && !(await clientExists(ctx.services, tenantId, coverage.clientId))) {
      errors.push({ pointer: `${pointer(index)}/clientId`, message: 'no such client (payer) in this company' });
    }
  }
  if (errors.length === 0) return;
  const detail = errors.map((e) => `${e.pointer}: ${e.message}`).join('; ');
  throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', detail, {}, errors);
}
