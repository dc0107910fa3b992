// Spec of the platform companies projection: companies (profile, status, modules, roles) and their memberships.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { companiesProjection } from './companiesProjection.js';
import { COMPANIES, MEMBERSHIPS, type CompanyDoc, type MembershipDoc } from './platformReadModels.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

const given = projectionSpec(companiesProjection);
const company = streamOf(PLATFORM_DOCS, 'company', 't1');
const otherCompany = streamOf(PLATFORM_DOCS, 'company', 't2');
const registered = (name: string) => ({
  type: 'CompanyRegistered',
  data: { companyId: name === 'Otra' ? 't2' : 't1', name, legalName: `${name} SAC`, taxId: '20123456789', modules: [] },
});
const granted = (userId: string) => ({ type: 'MembershipGranted', data: { userId, roles: ['nurse'] } });
const offered = {
  type: 'MembershipOffered',
  data: { userId: 'u2', roles: ['admin'], name: 'Luis', email: 'luis@x.pe', tokenHash: 'h', expiresAt: '2025-03-10T00:00:00.000Z' },
};

describe('platform companies projection', () => {
  it('registers a company, enables a module, defines a role and suspends it; every event moves its revision', async () => {
    const history = company(
      registered('Renal Sur'),
      { type: 'ModuleEnabled', data: { module: 'productos' } },
      { type: 'RoleDefined', data: { code: 'jefa', name: 'Jefa', permissions: ['pacientes:read'], grantsAll: false } },
      granted('u1'),
      { type: 'CompanySuspended', data: { reason: 'unpaid' }, metadata: { occurredAt: '2025-03-05T00:00:00.000Z' } },
    );
    await given(history).then<CompanyDoc>(COMPANIES.collection, 't1', (doc) => {
      assert.deepEqual(doc.modules, ['productos']);
      assert.deepEqual(Object.keys(doc.roles), ['jefa']);
      assert.deepEqual(
        [doc.status, doc.suspendedAt, doc.suspensionReason, doc.revision],
        ['suspended', '2025-03-05T00:00:00.000Z', 'unpaid', 4],
      );
    });
  });

  it('a profile correction renames it; a membership offered, then accepted, then revoked', async () => {
    const corrected = { type: 'CompanyProfileCorrected', data: { changes: { tradeName: 'Renal Sur Norte' } } };
    await given(company(registered('Renal Sur'), corrected)).then<CompanyDoc>(COMPANIES.collection, 't1', (doc) =>
      assert.equal(doc.name, 'Renal Sur Norte'),
    );
    const pending = given(company(registered('Renal Sur'), offered));
    await pending.then<MembershipDoc>(MEMBERSHIPS.collection, 't1:u2', (doc) => {
      assert.deepEqual([doc.status, doc.active, doc.invited?.name], ['pending', false, 'Luis']);
    });
    const revoked = { type: 'MembershipRevoked', data: { userId: 'u2' } };
    await given(company(registered('Renal Sur'), offered, granted('u2'), revoked)).then<MembershipDoc>(
      MEMBERSHIPS.collection,
      't1:u2',
      (doc) => {
        assert.deepEqual([doc.status, doc.active, doc.roles], ['revoked', false, []]);
      },
    );
  });

  it('changes nothing when events are delivered again: a replayed grant never revives a revoked membership', async () => {
    const events = company(registered('Renal Sur'), granted('u1'), { type: 'MembershipRevoked', data: { userId: 'u1' } });
    await given(events, events[1]!).then<MembershipDoc>(MEMBERSHIPS.collection, 't1:u1', (doc) => assert.equal(doc.active, false));
    await given(events, otherCompany(registered('Otra'))).thenIdempotent();
  });

  it("lists a company's members only, all kept in the platform scope", async () => {
    const outcome = given(company(registered('Renal Sur'), granted('u1')), otherCompany(registered('Otra'), granted('u9')));
    await outcome.thenFind<MembershipDoc>(MEMBERSHIPS.collection, { companyId: 't1', active: true }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.userId),
        ['u1'],
      ),
    );
    await outcome.then<CompanyDoc>(COMPANIES.collection, 't2', (doc) => assert.equal(doc.name, 'Otra'));
    await outcome.in('t1').thenAbsent(COMPANIES.collection, 't1');
  });
});
