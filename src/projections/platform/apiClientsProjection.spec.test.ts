// Spec of the platform API clients projection: one document per client under the platform scope, listed by company.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { apiClientsProjection } from './apiClientsProjection.js';
import { API_CLIENTS, type ApiClientDoc } from './platformReadModels.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

const given = projectionSpec(apiClientsProjection);
const client = streamOf(PLATFORM_DOCS, 'apiClient', 'ac1');
const otherCompanys = streamOf(PLATFORM_DOCS, 'apiClient', 'ac2');
const C = API_CLIENTS.collection;
const created = (clientId: string, companyId: string) => ({
  type: 'ApiClientCreated',
  data: { clientId, companyId, name: `lab of ${companyId}`, roles: ['lab'], secretHash: 'h' },
});

describe('platform api clients projection', () => {
  it('creates a client, stamps its tokens, then revokes it', async () => {
    const token = {
      type: 'ApiClientTokenIssued',
      data: { tokenId: 'tk1', expiresAt: '2025-03-03T09:00:00.000Z' },
      metadata: { occurredAt: '2025-03-03T08:30:00.000Z' },
    };
    const revoked = { type: 'ApiClientRevoked', data: { at: '2025-03-04T00:00:00.000Z' } };
    await given(client(created('ac1', 't1'), token, revoked)).then<ApiClientDoc>(C, 'ac1', (doc) => {
      assert.deepEqual(
        [doc.status, doc.revokedAt, doc.lastTokenAt, doc.companyId],
        ['revoked', '2025-03-04T00:00:00.000Z', '2025-03-03T08:30:00.000Z', 't1'],
      );
    });
  });

  it('a rotation keeps the previous secret until its grace ends; a role change replaces the roles', async () => {
    const rotated = { type: 'ApiClientSecretRotated', data: { secretHash: 'h2', previousValidUntil: '2025-03-05T00:00:00.000Z' } };
    const roles = { type: 'ApiClientRolesChanged', data: { roles: ['lab', 'billing'] } };
    await given(client(created('ac1', 't1'), rotated, roles)).then<ApiClientDoc>(C, 'ac1', (doc) => {
      assert.equal(doc.previousSecretValidUntil, '2025-03-05T00:00:00.000Z');
      assert.deepEqual(doc.roles, ['lab', 'billing']);
    });
  });

  it('changes nothing when events are delivered again', async () => {
    const events = client(created('ac1', 't1'), { type: 'ApiClientRevoked', data: { at: '2025-03-04T00:00:00.000Z' } });
    await given(events, events[0]!).then<ApiClientDoc>(C, 'ac1', (doc) => assert.equal(doc.status, 'revoked'));
    await given(events).thenIdempotent();
  });

  it("lists a company's clients only, all kept in the platform scope", async () => {
    const outcome = given(client(created('ac1', 't1')), otherCompanys(created('ac2', 't2')));
    await outcome.thenFind<ApiClientDoc>(C, { companyId: 't1' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.id),
        ['ac1'],
      ),
    );
    await outcome.in('t1').thenAbsent(C, 'ac1');
  });
});
