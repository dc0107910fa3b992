// Spec of the platform users projection: the sign-in lookup, one document per account under the platform scope.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { usersProjection } from './usersProjection.js';
import { USERS, type UserDoc } from './platformReadModels.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

const given = projectionSpec(usersProjection);
const user = streamOf(PLATFORM_DOCS, 'user', 'u1');
const other = streamOf(PLATFORM_DOCS, 'user', 'u2');
const C = USERS.collection;
const invited = {
  type: 'UserInvited',
  data: {
    userId: 'u1',
    email: 'ana@clinic.pe',
    name: 'Ana',
    activationHash: 'h',
    activationExpiresAt: '2025-03-10T00:00:00.000Z',
    companyId: 't1',
  },
};
const registered = {
  type: 'UserRegistered',
  data: { userId: 'u2', email: 'root@clinic.pe', name: 'Root', passwordHash: 'h', platformAdmin: true },
};
const accepted = (challengeId: string) => ({ type: 'TotpCodeAccepted', data: { challengeId, timeStep: 1 } });

describe('platform users projection', () => {
  it('invites, activates and enrolls a user; a code accepted at sign-in stamps the sign-in, a step-up code does not', async () => {
    const history = user(
      invited,
      { type: 'UserActivated', data: { passwordHash: 'h' } },
      { type: 'TotpEnrollmentStarted', data: { encryptedSecret: 's' } },
      { type: 'TotpEnrollmentConfirmed', data: { encryptedSecret: 's', timeStep: null } },
      { ...accepted('c1'), metadata: { occurredAt: '2025-03-04T09:00:00.000Z' } },
      accepted('step-up:c2'),
    );
    await given(history).then<UserDoc>(C, 'u1', (doc) => {
      assert.deepEqual(
        [doc.activated, doc.platformAdmin, doc.totpStatus, doc.lastSignInAt],
        [true, false, 'confirmed', '2025-03-04T09:00:00.000Z'],
      );
    });
  });

  it('a password change and a second-factor reset invalidate earlier sessions but the one that changed it; deactivation', async () => {
    const changed = {
      type: 'PasswordChanged',
      data: { passwordHash: 'h2' },
      metadata: { sessionId: 'sess-9', occurredAt: '2025-03-05T10:00:00.000Z' },
    };
    await given(other(registered, changed)).then<UserDoc>(C, 'u2', (doc) => {
      assert.deepEqual([doc.credentialsChangedAt, doc.credentialsKeptSession], ['2025-03-05T10:00:00.000Z', 'sess-9']);
    });
    const reset = { type: 'TwoFactorReset', data: {} };
    await given(other(registered, changed, reset, { type: 'UserDeactivated', data: {} })).then<UserDoc>(C, 'u2', (doc) => {
      assert.deepEqual([doc.totpStatus, doc.credentialsKeptSession, doc.active], ['none', null, false]);
    });
  });

  it('changes nothing when events are delivered again', async () => {
    const events = user(invited, { type: 'UserDeactivated', data: {} });
    await given(events, events[0]!).then<UserDoc>(C, 'u1', (doc) => assert.equal(doc.active, false));
    await given(events, other(registered)).thenIdempotent();
  });

  it('keeps accounts in the platform scope, found by e-mail, never in a company', async () => {
    const outcome = given(user(invited), other(registered));
    await outcome.thenFind<UserDoc>(C, { email: 'ana@clinic.pe' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.id),
        ['u1'],
      ),
    );
    await outcome.in('t1').thenAbsent(C, 'u1');
  });
});
