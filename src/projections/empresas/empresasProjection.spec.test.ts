// Spec of the Empresas projection: the company policy (with defaults for settings added since) and the locations.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { COMPANY_POLICIES, LOCATIONS, empresasProjection } from './empresasProjection.js';
import { type PolicyDoc } from './policyDoc.js';
import { DEFAULT_POLICY } from '../../commands/empresas/shared/policySettings.js';
import type { LocationDoc } from './locationDoc.js';

const given = projectionSpec(empresasProjection);
const policy = streamOf('t1', 'policy', 't1');
const location = streamOf('t1', 'location', 'l1');
const otherCompany = streamOf('t2', 'location', 'l1');
const adopted = { type: 'PolicyAdopted', data: { settings: DEFAULT_POLICY, policyRevision: -1 } };
const opened = (name = 'Sede Norte') => ({
  type: 'LocationOpened',
  data: { locationId: 'l1', name, address: null, registryCode: '00012345' },
});

describe('empresas projection', () => {
  it('adopts the policy, then follows its changes; settings it never recorded take their defaults', async () => {
    const { staff: _missing, ...older } = DEFAULT_POLICY;
    const changed = {
      type: 'PolicyChanged',
      data: {
        settings: { ...older, shifts: { defaultCapacity: 12, patientsPerNurse: 3 } },
        changed: ['/shifts'],
        reason: 'small room',
        policyRevision: 0,
      },
    };
    await given(policy(adopted, changed)).then<PolicyDoc>(COMPANY_POLICIES, 't1', (doc) => {
      assert.equal(doc.settings.shifts.defaultCapacity, 12);
      assert.deepEqual(doc.settings.staff, DEFAULT_POLICY.staff);
      assert.equal(doc.revision, 1);
    });
  });

  it('opens a location with rooms and stations; a correction renames it, a station keeps its deactivation reason', async () => {
    const history = location(
      opened(),
      { type: 'RoomAdded', data: { roomId: 'r1', name: 'Sala A', isolation: 'none' } },
      { type: 'StationAdded', data: { stationId: 'st1', code: 'P1', roomId: 'r1' } },
      { type: 'StationDeactivated', data: { stationId: 'st1', reason: 'leak' } },
      { type: 'LocationCorrected', data: { changes: { name: 'Ámbito Sur' }, previous: { name: 'Sede Norte' } } },
    );
    await given(history).then<LocationDoc>(LOCATIONS, 'l1', (doc) => {
      assert.deepEqual([doc.name, doc.sortName, doc.status], ['Ámbito Sur', 'ambito sur', 'open']);
      assert.deepEqual(
        doc.stations.map((s) => [s.code, s.status, s.statusReason]),
        [['P1', 'inactive', 'leak']],
      );
      assert.equal(doc.rooms.length, 1);
    });
    await given(location(opened(), { type: 'LocationClosed', data: { reason: 'moved' } })).thenFind<LocationDoc>(
      LOCATIONS,
      { status: 'closed' },
      (docs) =>
        assert.deepEqual(
          docs.map((d) => d.closedReason),
          ['moved'],
        ),
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = location(opened(), { type: 'RoomAdded', data: { roomId: 'r1', name: 'Sala A', isolation: 'none' } });
    await given(events, events[1]!).then<LocationDoc>(LOCATIONS, 'l1', (doc) => assert.equal(doc.rooms.length, 1));
    await given(events, policy(adopted)).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(location(opened()), otherCompany(opened('Otra')));
    await outcome.then<LocationDoc>(LOCATIONS, 'l1', (doc) => assert.equal(doc.name, 'Sede Norte'));
    await outcome.in('t2').then<LocationDoc>(LOCATIONS, 'l1', (doc) => assert.equal(doc.name, 'Otra'));
    await given(otherCompany(opened())).in('t1').thenAbsent(LOCATIONS, 'l1');
    await given(otherCompany(opened()), policy(adopted)).in('t2').thenAbsent(COMPANY_POLICIES, 't1');
  });
});
