// The loaders of the session's commands other than the start (types: src/commands/dialisis/session/sessionFacts.ts):
// a signature's policy, signer and judge; a plain command's maximums and a medication's product; a machine change's
// references, patient and machine verdict. Outside src/commands because they read read models.
import { loadAggregate } from '../../commands/handleCommand.js';
import { invalidFields } from '../../commands/shared/fieldChecks.js';
import { patientDecider } from '../../commands/pacientes/patientDecider.js';
import { isCompanyProduct } from '../../commands/productos/kitWrites.js';
import type { LoadMachineChangeFacts, LoadSessionCommandFacts, LoadSignFacts } from '../../commands/dialisis/session/sessionFacts.js';
import type { AppServices } from '../../services.js';
import { companyPolicy } from '../../queries/empresas/companyPolicy.js';
import { maySignClinicalRecords } from '../../queries/colaboradores/maySign.js';
import { stationOf } from '../../queries/empresas/locationQueries.js';
import { machines } from '../../queries/monitores/machines.js';
import { mayStartSession } from '../../queries/monitores/mayStartSession.js';
import { streamName } from '../../stores/eventStore.js';
import { judgeClinical } from './judgedClinical.js';

/** Policy and signer side by side, each read once; the judge uses that policy. */
export function signFactLoader(services: AppServices): LoadSignFacts {
  return async (tenantId, { actor, at, act }) => {
    const [policy, verdict] = await Promise.all([
      companyPolicy(services, tenantId),
      maySignClinicalRecords({ services, auth: { tenantId } }, actor, at, act),
    ]);
    const signer = { allowed: verdict.allowed, staffId: verdict.staffId, reasons: [...verdict.reasons] };
    return { policy, signer, judge: (recorded, pending) => judgeClinical(services, tenantId, policy, at, recorded, pending) };
  };
}

/** Read on demand: most plain commands need neither. */
export function sessionCommandFactLoader(services: AppServices): LoadSessionCommandFacts {
  return (tenantId) => ({
    policy: () => companyPolicy(services, tenantId),
    isCompanyProduct: (productId) => isCompanyProduct(services, tenantId, productId),
  });
}

export function machineChangeFactLoader(services: AppServices): LoadMachineChangeFacts {
  return async (tenantId, session, input, at) => {
    const scope = { services, auth: { tenantId } };
    const { locationId, patientId } = session.scheduled!;
    if (input.stationId && !(await stationOf(scope, locationId, input.stationId))) {
      throw invalidFields([{ field: 'stationId', message: "no such station in the session's location" }]);
    }
    if (!(await machines(scope).get(tenantId, input.machineId))) {
      throw invalidFields([{ field: 'machineId', message: 'no such machine in this company' }]);
    }
    const stream = streamName(tenantId, patientDecider.category, patientId);
    const { state: patient } = await loadAggregate(services.events, patientDecider, stream);
    const isolation = [...patient.isolation];
    const verdict = await mayStartSession(scope, input.machineId, { isolation }, at);
    const machine = {
      allowed: verdict.allowed,
      reasons: verdict.reasons.map((r) => r.code),
      warnings: verdict.warnings.map((w) => w.code),
    };
    return { isolation, machine };
  };
}
