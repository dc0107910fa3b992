// What the administration routes must never allow, over HTTP: reaching another company's accounts, handing out more than
// one holds, locking a program out, guessing through the step-up, keeping a session past a credential change.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { activateAndEnroll, clientToken, LIMA_PROFILE, registerCompany, signInto, STRONG_PASSWORD, type Person } from './adminWorld.js';
import { handleCommand } from '../../src/commands/handleCommand.js';
import { userDecider } from '../../src/commands/platform/user/decider.js';
import { platformContext } from '../../src/commands/platform/platformWrites.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { emailGuardDecider, emailGuardId } from '../../src/commands/platform/emailGuard/decider.js';

describe('Administration: what a company admin or a program can never do', () => {
  let server: TestServer;
  let platform: string;
  let a: { companyId: string; admin: Person & { accessToken: string } };
  let b: { companyId: string; admin: Person & { accessToken: string } };
  const company = async (taxId: string, email: string) => {
    const registered = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      taxId: { type: 'RUC', number: taxId },
      admin: { email, name: email },
    });
    const admin = await activateAndEnroll(server, email, registered.admin.activation.token);
    await server.selectTenant(admin.accessToken, registered.company.id);
    return { companyId: registered.company.id as string, admin };
  };
  before(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1' } });
    platform = await server.signInAndSelect(server.admin);
    a = await company('20131312955', 'jefe@a.pe');
    b = await company('20100070970', 'jefe@b.pe');
  });
  beforeEach(async () => {
    platform = await server.signInAndSelect(server.admin);
    a.admin.accessToken = await signInto(server, a.admin, a.companyId);
    b.admin.accessToken = await signInto(server, b.admin, b.companyId);
  });
  after(async () => server?.close());

  it("never reaches a shared account: no new activation token, no second-factor reset of another company's or the platform's people", async () => {
    const invitedByB = await server.request('POST', '/usuarios', {
      token: b.admin.accessToken,
      body: { email: 'bob@b.pe', name: 'Bob', roles: ['admin'] },
    });
    assert.equal(invitedByB.status, 201);
    const bob = invitedByB.body.user.id as string;
    const person = await activateAndEnroll(server, 'bob@b.pe', invitedByB.body.activation.token);
    const joinedA = await server.request('POST', '/usuarios', {
      token: a.admin.accessToken,
      body: { email: 'bob@b.pe', name: 'Bob', roles: ['nurse'] },
    });
    assert.equal(joinedA.status, 201);
    assert.equal(joinedA.body.user.membership, 'pending');
    const accepted = await server.request('POST', `/auth/invitations/${a.companyId}/accept`, {
      token: person.accessToken,
      body: { token: joinedA.body.activation.token },
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const takeover = await server.request('POST', `/usuarios/${bob}/activacion`, { token: a.admin.accessToken, body: { reason: 'x' } });
    assert.equal(takeover.status, 403, JSON.stringify(takeover.body));
    assert.equal(takeover.body.type, '/problems/account-shared');
    assert.equal(
      (await server.request('POST', `/usuarios/${bob}/reinicio-2fa`, { token: a.admin.accessToken, body: { reason: 'x' } })).status,
      403,
    );

    const invitedPlatform = await server.request('POST', '/usuarios', {
      token: a.admin.accessToken,
      body: { email: server.admin.email, name: 'Platform', roles: ['auditor'] },
    });
    const pendingReset = await server.request('POST', `/usuarios/${server.admin.userId}/reinicio-2fa`, {
      token: a.admin.accessToken,
      body: { reason: 'x' },
    });
    assert.equal(pendingReset.status, 404, 'a pending member is nobody of the company yet');
    await server.request('POST', `/auth/invitations/${a.companyId}/accept`, {
      token: platform,
      body: { token: invitedPlatform.body.activation.token },
    });
    const reset = await server.request('POST', `/usuarios/${server.admin.userId}/reinicio-2fa`, {
      token: a.admin.accessToken,
      body: { reason: 'x' },
    });
    assert.equal(reset.status, 403);
    assert.equal((await server.request('GET', '/empresas', { token: platform })).status, 200, 'the platform session lives on');
  });

  it('nobody grants more than they hold: roles, custom roles and API clients', async () => {
    await server.request('POST', '/roles', {
      token: a.admin.accessToken,
      body: { code: 'people', name: 'People', permissions: ['usuarios:read', 'usuarios:admin'] },
    });
    const invited = await server.request('POST', '/usuarios', {
      token: a.admin.accessToken,
      body: { email: 'rrhh@a.pe', name: 'RRHH', roles: ['people'] },
    });
    const hr = await activateAndEnroll(server, 'rrhh@a.pe', invited.body.activation.token);
    const token = await signInto(server, hr, a.companyId);
    const self = await server.request('PUT', `/usuarios/${hr.userId}/roles`, {
      token,
      body: { roles: ['admin'], reason: 'promote myself' },
    });
    assert.equal(self.status, 403, JSON.stringify(self.body));
    assert.equal(self.body.type, '/problems/grant-beyond-caller');
    const invite = await server.request('POST', '/usuarios', { token, body: { email: 'mine@a.pe', name: 'Mine', roles: ['admin'] } });
    assert.equal(invite.status, 403);
    const client = await server.request('POST', '/integraciones', { token, body: { name: 'Mine', roles: ['nurse'] } });
    assert.equal(client.status, 403);
    const peer = await server.request('POST', '/usuarios', { token, body: { email: 'peer@a.pe', name: 'Peer', roles: ['people'] } });
    assert.equal(peer.status, 201, 'what one holds, one may grant');
  });

  it('a role an API client holds is in use', async () => {
    await server.request('POST', '/roles', {
      token: a.admin.accessToken,
      body: { code: 'lab', name: 'Lab', permissions: ['pacientes:read'] },
    });
    const client = await server.request('POST', '/integraciones', { token: a.admin.accessToken, body: { name: 'Lab', roles: ['lab'] } });
    assert.equal(client.status, 201);
    const retire = await server.request('POST', '/roles/lab/retiro', { token: a.admin.accessToken, body: { reason: 'x' } });
    assert.equal(retire.status, 409);
    assert.equal(retire.body.type, '/problems/role-in-use');
  });

  it('wrong secrets from one address never lock out the program that has the right one; RFC 6749 errors', async () => {
    const created = await server.request('POST', '/integraciones', {
      token: a.admin.accessToken,
      body: { name: 'Billing', roles: ['billing'] },
    });
    const { clientSecret } = created.body;
    const clientId = created.body.client.id as string;
    const from = (ip: string, secret: string) =>
      server.request('POST', '/auth/token', {
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 10; i++) assert.equal((await from('203.0.113.7', 'guess')).status, 401);
    assert.equal((await from('203.0.113.7', 'guess')).status, 429);
    assert.equal((await from('198.51.100.20', clientSecret)).status, 200);
    const missing = await server.request('POST', '/auth/token', {
      body: { client_id: clientId, client_secret: clientSecret },
      headers: { 'x-forwarded-for': '198.51.100.21' },
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid_request');
    assert.equal((await clientToken(server, clientId, clientSecret)).status, 200);
  });

  it('an activation token is judged before the password; a leap second is refused, never a 500', async () => {
    const invited = await server.request('POST', '/usuarios', {
      token: a.admin.accessToken,
      body: { email: 'nueva@a.pe', name: 'Nueva', roles: ['nurse'] },
    });
    const userId = invited.body.user.id as string;
    const forged = `${userId}.${'A'.repeat(43)}`;
    const answer = await server.request('POST', '/auth/activate', { body: { token: forged, password: 'short' } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.type, '/problems/activation-invalid');
    const leap = await server.request('GET', '/colaboradores/firma-habilitada?at=2016-12-31T23:59:60Z', { token: a.admin.accessToken });
    assert.ok(leap.status >= 400 && leap.status < 500, `answered ${leap.status}`);
  });

  it('the step-up of a password change counts wrong passwords like logins', async () => {
    const invited = await server.request('POST', '/usuarios', {
      token: a.admin.accessToken,
      body: { email: 'paso@a.pe', name: 'Paso', roles: ['nurse'] },
    });
    const person = await activateAndEnroll(server, 'paso@a.pe', invited.body.activation.token);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await server.request('POST', '/auth/password', {
        token: person.accessToken,
        body: { currentPassword: `wrong ${i}`, code: '000000', newPassword: 'otra clave muy larga y nueva' },
      });
      statuses.push(answer.status);
    }
    assert.deepEqual(statuses, [422, 422, 422, 422, 422, 429]);
  });

  it('a session started before a password change is refused even if its revocation was never written', async () => {
    const invited = await server.request('POST', '/usuarios', {
      token: a.admin.accessToken,
      body: { email: 'caida@a.pe', name: 'Caida', roles: ['nurse'] },
    });
    const person = await activateAndEnroll(server, 'caida@a.pe', invited.body.activation.token);
    const token = await signInto(server, person, a.companyId);
    assert.equal((await server.request('GET', '/pacientes', { token })).status, 200);
    server.clock.advance(1000);
    // The password change was written; the process died before it revoked the other sessions.
    const changed = await handleCommand(
      server.services.events,
      userDecider,
      { type: 'ChangePassword', aggregateId: person.userId, data: { passwordHash: await hashPassword('una clave nueva y larga') } },
      platformContext(server.services, { actor: person.userId }),
    );
    await server.services.projections.waitFor(changed.position!);
    assert.equal((await server.request('GET', '/pacientes', { token })).status, 401);
  });

  it('two companies inviting one new e-mail at once: one account, two pending memberships, one activation token', async () => {
    const [fromA, fromB] = await Promise.all([
      server.request('POST', '/usuarios', { token: a.admin.accessToken, body: { email: 'doble@x.pe', name: 'Doble', roles: ['nurse'] } }),
      server.request('POST', '/usuarios', { token: b.admin.accessToken, body: { email: 'doble@x.pe', name: 'Doble', roles: ['nurse'] } }),
    ]);
    assert.deepEqual([fromA.status, fromB.status], [201, 201], JSON.stringify([fromA.body, fromB.body]));
    assert.equal(fromA.body.user.id, fromB.body.user.id);
    const [created] = await server.services.events.readStream(`platform.user-${fromA.body.user.id}`);
    const [creator, other] = (created?.data as { companyId: string }).companyId === a.companyId ? [fromA, fromB] : [fromB, fromA];
    const activate = (token: string) => server.request('POST', '/auth/activate', { body: { token, password: STRONG_PASSWORD } });
    assert.equal((await activate(other.body.activation.token)).status, 400, 'only the creating company holds an activation token');
    assert.equal((await activate(creator.body.activation.token)).status, 200);
  });

  it('an invitation interrupted before its membership: the next invitation of that e-mail gets a usable activation token', async () => {
    const email = 'interrumpida@a.pe';
    const userId = '0b6f7a52-5d0c-4d7e-9d51-2f1b0c9e7a11';
    const ctx = platformContext(server.services, { actor: a.admin.userId });
    await handleCommand(
      server.services.events,
      emailGuardDecider,
      { type: 'ReserveEmail', aggregateId: emailGuardId(email), data: { email, userId } },
      ctx,
    );
    const lost = await handleCommand(
      server.services.events,
      userDecider,
      {
        type: 'InviteUser',
        aggregateId: userId,
        data: { email, name: 'I', activationHash: 'lost', activationExpiresAt: '2100-01-01T00:00:00.000Z', companyId: a.companyId },
      },
      ctx,
    );
    await server.services.projections.waitFor(lost.position!);
    const retried = await server.request('POST', '/usuarios', { token: a.admin.accessToken, body: { email, name: 'I', roles: ['nurse'] } });
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    assert.equal(retried.body.user.id, userId);
    assert.ok(retried.body.activation?.token, 'a fresh token replaces the one the interrupted invitation lost');
    await activateAndEnroll(server, email, retried.body.activation.token);
  });

  it('a tax id correction alone is checked against the country, and frees the old one', async () => {
    const read = await server.request('GET', '/empresas/actual', { token: a.admin.accessToken });
    const corrected = await server.request('PATCH', '/empresas/actual', {
      token: a.admin.accessToken,
      headers: { 'if-match': read.headers.etag! },
      body: { taxId: { type: 'RUC', number: '20100047218' }, reason: 'typo at registration' },
    });
    assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
    const reused = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      taxId: { type: 'RUC', number: '20131312955' },
      admin: { email: 'c@c.pe', name: 'C' },
    });
    assert.equal(reused.company.profile.taxId.number, '20131312955');
  });
});
