// The one loader of a session start's facts (issue 22 item 3; the type is src/commands/dialisis/session/startFacts.ts):
// the input's references checked first (422 naming the field), then every stream read once and every model read once,
// the independent ones side by side. It lives outside src/commands because it reads read models.
import { loadAggregate } from '../../commands/handleCommand.js';
import { invalidFields } from '../../commands/shared/fieldChecks.js';
import { patientDecider } from '../../commands/pacientes/patientDecider.js';
import { dryWeightInForce } from '../../commands/pacientes/patientState.js';
import type { PatientEvent } from '../../commands/pacientes/patientEvents.js';
import { machineDecider } from '../../commands/monitores/machineDecider.js';
import { authorizationFor } from '../../commands/clientes/payerLookupWrites.js';
import { coverageClientOn, coveragesOf } from '../../commands/clientes/payerCoverage.js';
import { contractInForce } from '../../commands/clientes/clientWrites.js';
import { prescriptionInForce } from '../../commands/dialisis/prescription/prescriptionWrites.js';
import { otherRunningSession } from '../../commands/dialisis/session/runningSessionWrites.js';
import { isBackEntry } from '../../commands/dialisis/session/backEntry.js';
import type { AccessUsed, PrescriptionInForce } from '../../commands/dialisis/session/sessionEvents.js';
import type { LoadStartFacts, PayerVerdict, StartFacts, StartInput } from '../../commands/dialisis/session/startFacts.js';
import type { PolicyFacts } from '../../commands/empresas/shared/policySettings.js';
import type { AppServices } from '../../services.js';
import { companyPolicy } from '../../queries/empresas/companyPolicy.js';
import { patients } from '../../queries/pacientes/readModel.js';
import { stationOf } from '../../queries/empresas/locationQueries.js';
import { machines } from '../../queries/monitores/machines.js';
import { mayStartSession } from '../../queries/monitores/mayStartSession.js';
import { dialyzerModel, dialyzers } from '../../queries/filtros-dialisis/dialyzers.js';
import { readyForUse } from '../../queries/filtros-dialisis/readyForUse.js';
import { bloodlineModels, readyBloodlines } from '../../queries/lineas/bloodlines.js';
import { streamName } from '../../stores/eventStore.js';

type Scope = { services: AppServices; auth: { tenantId: string } };

// A field rule like the decider's: the session write route answers it as 422 pointing at the field.
const absent = (field: string, what: string) => invalidFields([{ field, message: `no such ${what} in this company` }]);

const LINES = [
  ['arterialLine', 'arterial', 'arterialLineId'],
  ['venousLine', 'venous', 'venousLineId'],
] as const;

/** Equipment named in the body is this company's, the station one of the session's location (was the route's guard). */
async function mustBeCompanyEquipment(scope: Scope, locationId: string, input: StartInput): Promise<void> {
  const tenantId = scope.auth.tenantId;
  // The sheet and the board find the station in the session's location: another location's (or company's) is absent.
  if (input.stationId && !(await stationOf(scope, locationId, input.stationId))) {
    throw absent('stationId', "station in the session's location");
  }
  if (!(await machines(scope).get(tenantId, input.machineId))) throw absent('machineId', 'machine');
  if (input.dialyzerId && !(await dialyzers(scope).get(tenantId, input.dialyzerId))) throw absent('dialyzerId', 'dialyzer');
  for (const [, lineType, field] of LINES) {
    const id = input[field];
    if (id) await bloodlineModels[lineType].or404(scope, id).catch(() => Promise.reject(absent(field, `${lineType} line`)));
  }
}

/** The access the session uses: kept on the session so a later access change never rewrites its eKt/V. */
async function accessUsed(scope: Scope, patientId: string, rx: PrescriptionInForce | null): Promise<AccessUsed | null> {
  const patient = await patients(scope).get(scope.auth.tenantId, patientId);
  const primary = patient?.vascularAccesses.find((a) => a.primary && a.status === 'active');
  if (!primary) return null;
  const needles = rx?.needles ?? null;
  return { accessId: primary.accessId, type: primary.type, side: primary.side, site: primary.site, needles };
}

/**
 * No valid payer authorization that day under a contract that requires one: blocked or flagged as the contract says
 * (issue 11 item 6). Null when nothing is missing, or the patient has no coverage (self-pay).
 */
async function payerVerdict(scope: Scope, patientId: string, date: string, payerClient: string | null): Promise<PayerVerdict> {
  if (payerClient === null) return null;
  const { services, auth } = scope;
  const lookup = await authorizationFor(services, auth.tenantId, patientId, date, payerClient);
  if (lookup.clientId === null) return null;
  const contract = await contractInForce(services, auth.tenantId, lookup.clientId, date);
  if (!contract?.authorizationRequired) return null;
  const block = contract.withoutAuthorization === 'block';
  // A contract that blocks without authorization holds the unit from the start (issue 21 item 17): a reservation.
  if (lookup.authorization) return block ? { reserveFrom: lookup.clientId } : null;
  return { block, reason: lookup.reason };
}

/** The dialyzer's and the lines' pre-use verdicts, with the policy folded above. */
async function disposables(scope: Scope, patientId: string, input: StartInput, at: string, policy: PolicyFacts) {
  const dialyzer = input.dialyzerId
    ? Promise.all([readyForUse(scope, input.dialyzerId, patientId, at, policy), dialyzerModel.or404(scope, input.dialyzerId)])
    : null;
  const lines: StartFacts['lines'] = {};
  for (const [what, lineType, field] of LINES) {
    const lineId = input[field];
    if (!lineId) continue;
    const { items } = await readyBloodlines(scope, lineType, patientId, policy);
    const line = items.find((item) => item.line.id === lineId);
    lines[what] = line ? [...line.reasons] : ['not-a-line-of-this-patient'];
  }
  const judged = dialyzer ? await dialyzer : null;
  return { lines, dialyzer: judged ? { reasons: [...judged[0].reasons], spec: judged[1] } : null };
}

export function startFactLoader(services: AppServices): LoadStartFacts {
  return async (tenantId, sessionId, session, input, at) => {
    const scope = { services, auth: { tenantId } };
    const { patientId, date, locationId } = session.scheduled!;
    await mustBeCompanyEquipment(scope, locationId, input);
    const [policy, patientLoad, prescription, machineLoad, otherRunning] = await Promise.all([
      companyPolicy(services, tenantId),
      // Whole: its events also give the coverage's payer (payerCoverage.ts), so the stream is read once.
      loadAggregate(services.events, patientDecider, streamName(tenantId, patientDecider.category, patientId), { whole: true }),
      prescriptionInForce(services, tenantId, patientId, date),
      loadAggregate(services.events, machineDecider, streamName(tenantId, machineDecider.category, input.machineId)),
      otherRunningSession(services, tenantId, patientId, sessionId, input.startedAt),
    ]);
    const patient = patientLoad.state;
    const machineNow = machineLoad.state;
    const payerClient = coverageClientOn(coveragesOf(patientLoad.events as unknown as PatientEvent[]), date);
    // A back entry's machine is judged as of its stated start (issue 21 item 1).
    const lateEntry = session.scheduled!.lateEntryReason !== undefined;
    const judgedAt = isBackEntry(input.startedAt, lateEntry, machineNow.currentSession, sessionId) ? input.startedAt! : at;
    const [payer, access, verdict, { dialyzer, lines }] = await Promise.all([
      payerVerdict(scope, patientId, date, payerClient),
      accessUsed(scope, patientId, prescription),
      mayStartSession(scope, input.machineId, { isolation: [...patient.isolation] }, judgedAt, policy),
      disposables(scope, patientId, input, at, policy),
    ]);
    const machine = { reasons: verdict.reasons.map((r) => r.code), warnings: verdict.warnings.map((w) => w.code) };
    const dryWeight = dryWeightInForce(patient, date);
    return { policy, patient, prescription, dryWeight, machineNow, otherRunning, payer, access, machine, dialyzer, lines };
  };
}
