// The widgets bench's sessions are what the service would hold: the real decider's events, folded by the session
// projection's own fold, cover every board state today and leave past sessions signed with judged values.
import assert from 'node:assert/strict';
import { foldSession } from '../../src/projections/dialisis/sessionDoc.js';
import type { SessionDoc } from '../../src/projections/dialisis/sessionDoc.js';
import type { RecordedEvent } from '../../src/stores/eventStore.js';
import { sessionStreamFor } from '../../bench/widgetSessions.js';
import type { PatientTrack } from '../../bench/widgetSessions.js';
import type { WidgetSeed } from '../../bench/widgetSeed.js';
import { datasetRandom } from '../../bench/dataset.js';

const seed: WidgetSeed = {
  companyId: 'benchco',
  today: '2026-11-26',
  locationId: 'loc1',
  shiftIds: ['shiftAm', 'shiftPm'],
  physician: { userId: 'dr1', staffId: 'st-dr1' },
  nurseStaffIds: ['st-n1', 'st-n2'],
  machineIds: ['m1', 'm2'],
  dialyzerIds: ['d1'],
};
const track = (n: number): PatientTrack => ({
  n,
  patientId: `p${n}`,
  dryWeightKg: 60,
  lastDay: null,
  previousNetPostWeightKg: null,
  previousEndedAt: null,
});

function statusOf(n: number, date: string, t = track(n), rand = datasetRandom()): SessionDoc {
  const { stream, events } = sessionStreamFor(seed, t, date, rand, { next: 1n });
  let doc: SessionDoc | null = null;
  events.forEach((e, revision) => {
    const recorded = { ...e, streamName: stream, revision, position: BigInt(revision + 1) } as RecordedEvent;
    doc = foldSession(doc, recorded);
  });
  return doc!;
}

describe('widgets bench sessions', () => {
  it("today's sessions of one weekday parity cover every board state", () => {
    // 2026-11-26 is a Thursday: the odd patients' day.
    const statuses = new Set(Array.from({ length: 16 }, (_, k) => statusOf(2 * k + 1, seed.today).status));
    assert.deepEqual([...statuses].sort(), ['checked-in', 'ended', 'in-progress', 'no-show', 'scheduled', 'signed', 'validated']);
  });

  it('a past session is signed with the values judged by the clinical functions, then validated', () => {
    const t = track(3);
    const rand = datasetRandom();
    statusOf(3, '2026-10-13', t, rand);
    const doc = statusOf(3, '2026-10-15', t, rand);
    assert.equal(doc.status, 'validated');
    const derived = (doc.judged as unknown as { derived: Record<string, number> }).derived;
    assert.equal(typeof derived.spKtV, 'number');
    assert.ok(derived.urrPercent! >= 55 && derived.urrPercent! <= 82, `URR ${derived.urrPercent}`);
    assert.equal(typeof derived.idwgKg, 'number');
  });
});
