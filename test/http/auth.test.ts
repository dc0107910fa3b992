// Sign-in as the public specification fixes it, over real HTTP against the real server.
import assert from 'node:assert/strict';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';
import { registerUser, grantMembership } from '../../src/commands/platform/platformWrites.js';
import { PLATFORM_TENANT, streamName } from '../../src/stores/eventStore.js';

const typesOf = async (server: TestServer, category: string, id: string) =>
  (await server.services.events.readStream(streamName(PLATFORM_TENANT, category, id))).map((e) => e.type);

describe('HTTP sign-in: the specified sequence', function () {
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(async () => server?.close());

  it('login -> verify-2fa -> GET /tenants -> select -> a company route answers 2xx', async () => {
    const login = await server.request('POST', '/auth/login', { body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.match(login.body.challenge, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(login.body.expiresIn, 300);
    assert.equal(login.body.enrollment, undefined, 'the bootstrap admin has a provisioned second factor');

    server.nextTotpStep();
    const verified = await server.request('POST', '/auth/verify-2fa', {
      body: { challenge: login.body.challenge, code: await server.totpCode(TEST_ADMIN.totpSecret) },
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.tokenType, 'Bearer');
    assert.equal(verified.body.expiresIn, 900);
    const token = verified.body.accessToken as string;

    const tenants = await server.request('GET', '/tenants', { token });
    assert.equal(tenants.status, 200);
    assert.deepEqual(tenants.body, { items: [{ id: server.admin.companyId, name: TEST_ADMIN.companyName, roles: ['admin'] }] });

    const before = await server.request('GET', '/pacientes', { token });
    assert.equal(before.status, 403, 'a company route before selection');
    assert.equal(before.body.type, '/problems/company-not-selected');

    const selected = await server.request('POST', `/tenants/${server.admin.companyId}/select`, { token });
    assert.equal(selected.status, 200, JSON.stringify(selected.body));
    assert.deepEqual(selected.body.company, { id: server.admin.companyId, name: TEST_ADMIN.companyName });
    assert.deepEqual(selected.body.roles, ['admin']);
    assert.ok(
      selected.body.permissions.includes('pacientes:read') && selected.body.permissions.includes('pacientes:write'),
      'admin holds every permission',
    );

    const patients = await server.request('GET', '/pacientes', { token });
    assert.equal(patients.status, 200, JSON.stringify(patients.body));

    const me = await server.request('GET', '/auth/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, TEST_ADMIN.email);
    assert.equal(me.body.platformAdmin, true);
    assert.equal(me.body.company.id, server.admin.companyId);
  });

  it('records the sign-in in the audit trail from the door on', async () => {
    const { accessToken } = await server.signIn(TEST_ADMIN.email, TEST_ADMIN.password, TEST_ADMIN.totpSecret);
    await server.selectTenant(accessToken, server.admin.companyId);
    const userEvents = await typesOf(server, 'user', server.admin.userId);
    assert.ok(userEvents.includes('LoginSucceeded') && userEvents.includes('TotpCodeAccepted'));
    const me = await server.request('GET', '/auth/me', { token: accessToken });
    const sessionEvents = await server.services.events.readStream(streamName(PLATFORM_TENANT, 'session', me.body.session.id));
    assert.deepEqual(
      sessionEvents.map((e) => e.type),
      ['SessionStarted', 'CompanySelected'],
    );
    assert.equal(sessionEvents[1]!.metadata.actor, server.admin.userId);
    assert.equal(sessionEvents[1]!.metadata.ip !== null, true, 'the client address is recorded');
  });

  it('answers one generic 401 for an unknown e-mail and for a wrong password', async () => {
    const unknown = await server.request('POST', '/auth/login', {
      body: { email: 'nobody@clinic.example', password: TEST_ADMIN.password },
    });
    const wrong = await server.request('POST', '/auth/login', { body: { email: TEST_ADMIN.email, password: 'not the password' } });
    assert.equal(unknown.status, 401);
    assert.equal(wrong.status, 401);
    const { correlationId: _a, ...u } = unknown.body;
    const { correlationId: _b, ...w } = wrong.body;
    assert.deepEqual(u, w);
    assert.equal(u.type, '/problems/invalid-credentials');
    assert.ok((await typesOf(server, 'user', server.admin.userId)).includes('LoginFailed'));
  });

  it('lists only the companies the user belongs to; another company is 404 on select', async () => {
    const other = await server.createCompanyWithAdmin('Clinica Dos', 'dos@clinic.example', 'password of clinic two');
    const { accessToken } = await server.signIn(TEST_ADMIN.email, TEST_ADMIN.password, TEST_ADMIN.totpSecret);
    const tenants = await server.request('GET', '/tenants', { token: accessToken });
    assert.deepEqual(
      tenants.body.items.map((t: { id: string }) => t.id),
      [server.admin.companyId],
    );
    const foreign = await server.request('POST', `/tenants/${other.companyId}/select`, { token: accessToken });
    const missing = await server.request('POST', '/tenants/doesnotexist/select', { token: accessToken });
    assert.equal(foreign.status, 404);
    assert.equal(missing.status, 404);
    assert.equal(foreign.body.detail, missing.body.detail, 'another company looks exactly like no company');

    const otherToken = await server.signInAndSelect(other);
    const theirs = await server.request('GET', '/tenants', { token: otherToken });
    assert.deepEqual(theirs.body.items, [{ id: other.companyId, name: 'Clinica Dos', roles: ['admin'] }]);
  });

  it('enrolls TOTP on the first sign-in and confirms it with the first valid code', async () => {
    const caller = { actor: 'system' };
    const { userId, position } = await registerUser(
      server.services,
      { email: 'Nurse@Clinic.example', name: 'Nurse', password: 'quiet harbour lantern 7' },
      caller,
    );
    const granted = await grantMembership(server.services, { companyId: server.admin.companyId, userId, roles: ['admin'] }, caller);
    await server.services.projections.waitFor(granted.position ?? position!);

    const first = await server.request('POST', '/auth/login', {
      body: { email: 'nurse@clinic.example', password: 'quiet harbour lantern 7' },
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const { secret, otpauthUri, qrPng } = first.body.enrollment;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.match(otpauthUri, /^otpauth:\/\/totp\/.*secret=[A-Z2-7]+/);
    assert.match(qrPng, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);

    const again = await server.request('POST', '/auth/login', {
      body: { email: 'nurse@clinic.example', password: 'quiet harbour lantern 7' },
    });
    assert.equal(again.body.enrollment.secret, secret, 'the pending secret stays the same until confirmed');

    server.nextTotpStep();
    const verified = await server.request('POST', '/auth/verify-2fa', {
      body: { challenge: again.body.challenge, code: await server.totpCode(secret) },
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const me = await server.request('GET', '/auth/me', { token: verified.body.accessToken });
    assert.equal(me.body.totpEnrolled, true);

    const later = await server.request('POST', '/auth/login', {
      body: { email: 'nurse@clinic.example', password: 'quiet harbour lantern 7' },
    });
    assert.equal(later.status, 200);
    assert.equal(later.body.enrollment, undefined);
    const stored = (await server.services.events.readStream(streamName(PLATFORM_TENANT, 'user', userId))).find(
      (e) => e.type === 'TotpEnrollmentConfirmed',
    );
    const sealed = String((stored!.data as { encryptedSecret: string }).encryptedSecret);
    assert.ok(sealed.startsWith('v1.') && !sealed.includes(secret), 'the secret is stored encrypted');
  });

  it('documents the sign-in routes with full status tables', async () => {
    const doc = await server.request('GET', '/openapi.json');
    const login = doc.body.paths['/auth/login'].post;
    assert.deepEqual(
      ['200', '401', '429'].filter((s) => login.responses[s]),
      ['200', '401', '429'],
    );
    assert.ok(doc.body.paths['/tenants/{id}/select'].post.responses['404']);
    assert.ok(doc.body.paths['/auth/me'].get);
  });
});
