// The Dialisis records kept in another's stream (a plan in its patient's plan stream, a prescription version in its
// patient's prescription stream): when the read model lags behind a write, `latest` folds that stream for the record alone.
import assert from 'node:assert/strict';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { streamName } from '../../stores/eventStore.js';
import type { TenantScope } from '../tenantScope.js';
import { planModel } from './scheduleQueries.js';
import { PLAN_CATEGORY } from '../../commands/dialisis/schedule/standingPlanEvents.js';
import { prescriptionModel } from './prescriptions.js';
import { PRESCRIPTION_CATEGORY } from '../../commands/dialisis/prescription/prescriptionEvents.js';

const TENANT = 't1';

/** A company whose read model has nothing yet and whose log holds `streams`. */
function laggingScope(streams: Record<string, { type: string; data: Record<string, unknown> }[]>): TenantScope {
  const recorded = (stream: string): RecordedEvent[] =>
    (streams[stream] ?? []).map((e, revision) => ({
      ...e,
      id: `${stream}-${revision}`,
      streamName: stream,
      revision,
      position: BigInt(revision + 1),
      metadata: {
        tenantId: TENANT,
        actor: 'user:u1',
        sessionId: null,
        correlationId: 'c',
        causationId: null,
        commandId: 'k',
        occurredAt: '2025-03-01T08:00:00.000Z',
        ip: null,
        userAgent: null,
        reason: null,
      },
    }));
  const services = {
    projections: { collection: () => ({ get: () => Promise.resolve(null) }), waitFor: () => Promise.resolve(false) },
    events: { readStream: (stream: string) => Promise.resolve(recorded(stream)) },
  };
  return { auth: { tenantId: TENANT }, services } as unknown as TenantScope;
}

const plan = (planId: string, weekdays: number[]) => ({
  type: 'StandingPlanCreated',
  data: { planId, patientId: 'p1', shiftId: 'm', locationId: 'l1', weekdays, effectiveFrom: '2025-03-01', effectiveTo: null },
});
const issued = (version: number) => ({
  type: 'PrescriptionIssued',
  data: {
    modality: 'HD',
    durationMinutes: 240,
    frequencyPerWeek: 3,
    qbMlMin: 350,
    qdMlMin: 500,
    validFrom: `2025-0${version + 2}-01`,
    patientId: 'p1',
    version,
    supersedes: version > 1 ? version - 1 : null,
    prescribedBy: { userId: 'u-doc', staffId: 'st-doc' },
    issuedAt: '2025-03-01T09:00:00.000Z',
  },
});

describe('dialisis records kept in the patient stream', () => {
  it('a plan just created is folded from its patient stream (the write names it), without the other plans', async () => {
    const scope = laggingScope({ [streamName(TENANT, PLAN_CATEGORY, 'p1')]: [plan('pl1', [1]), plan('pl2', [3, 5])] });
    const doc = await planModel.latest(scope, 'pl2', { revision: 1, position: null, streamId: 'p1' });
    assert.deepEqual([doc.id, doc.weekdays, doc.revision], ['pl2', [3, 5], 1]);
  });

  it('a superseded prescription version is folded from its patient stream, with its successor', async () => {
    const scope = laggingScope({ [streamName(TENANT, PRESCRIPTION_CATEGORY, 'p1')]: [issued(1), issued(2)] });
    const first = await prescriptionModel.latest(scope, 'p1:1', { revision: 1, position: null });
    assert.deepEqual([first.version, first.supersededBy, first.effectiveTo, first.revision], [1, 2, '2025-03-31', 1]);
    const second = await prescriptionModel.latest(scope, 'p1:2', { revision: 1, position: null });
    assert.deepEqual([second.version, second.supersedes, second.revision], [2, 1, 1]);
  });
});
