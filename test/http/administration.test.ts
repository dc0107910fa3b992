// The scenario, over HTTP: a platform admin creates a second company with its admin; that admin invites a
// nurse, who activates, enrolls an authenticator, signs in, selects the company and reads patients but cannot manage
// users; deactivating the nurse ends her session on the next request; an API client gets a token and lists patients.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { registration } from './pacientesWorld.js';
import { activateAndEnroll, clientToken, LIMA_PROFILE, registerCompany, signInto } from './adminWorld.js';

describe('Administration: a whole clinic company from a fresh start', () => {
  let server: TestServer;
  let platform: string;
  before(async () => {
    server = await startTestServer();
    platform = await server.signInAndSelect(server.admin);
  });
  after(async () => server?.close());

  it('a platform admin creates a company with its admin; the admin invites a nurse who works with patients but not users', async () => {
    const registered = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      admin: { email: 'directora@renalnorte.pe', name: 'Dra. Rosa Quispe' },
    });
    const companyId = registered.company.id as string;
    assert.equal(registered.company.profile.taxId.number, '20131312955');
    assert.equal(registered.admin.accountCreated, true);
    const admin = await activateAndEnroll(server, 'directora@renalnorte.pe', registered.admin.activation.token);
    await server.selectTenant(admin.accessToken, companyId);

    const invited = await server.request('POST', '/usuarios', {
      token: admin.accessToken,
      body: { email: 'enfermera@renalnorte.pe', name: 'Lic. Ana Torres', roles: ['nurse'] },
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    assert.equal(invited.body.user.account, 'invited');
    assert.equal(invited.headers.location, `/usuarios/${invited.body.user.id}`);
    const nurse = await activateAndEnroll(server, 'enfermera@renalnorte.pe', invited.body.activation.token);
    const nurseToken = await signInto(server, nurse, companyId);

    assert.equal((await server.request('GET', '/pacientes', { token: nurseToken })).status, 200);
    const manage = await server.request('GET', '/usuarios', { token: nurseToken });
    assert.equal(manage.status, 403);
    assert.equal(manage.body.type, '/problems/forbidden');

    const listed = await server.request('GET', '/usuarios', { token: admin.accessToken });
    const row = listed.body.items.find((u: { email: string }) => u.email === 'enfermera@renalnorte.pe');
    assert.deepEqual([row.roles, row.account, row.totpEnrolled], [['nurse'], 'active', true]);
    assert.ok(row.lastSignInAt);

    const deactivated = await server.request('POST', `/usuarios/${nurse.userId}/desactivacion`, {
      token: platform,
      body: { reason: 'left the company' },
    });
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
    const after = await server.request('GET', '/pacientes', { token: nurseToken });
    assert.equal(after.status, 401);
    const again = await server.request('POST', '/auth/login', { body: { email: nurse.email, password: nurse.password } });
    assert.equal(again.status, 401);
  });

  it('an API client gets a token bound to its company, lists patients, acts as itself, and is refused at once when revoked', async () => {
    const registered = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      taxId: { type: 'RUC', number: '20100070970' },
      tradeName: 'Renal Sur',
      admin: { email: 'admin@renalsur.pe', name: 'Admin Sur' },
    });
    const companyId = registered.company.id as string;
    const admin = await activateAndEnroll(server, 'admin@renalsur.pe', registered.admin.activation.token);
    await server.selectTenant(admin.accessToken, companyId);
    const created = await server.request('POST', '/integraciones', {
      token: admin.accessToken,
      body: { name: 'Laboratorio', roles: ['nurse'] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { clientSecret } = created.body;
    const clientId = created.body.client.id as string;

    const token = await clientToken(server, clientId, clientSecret);
    assert.equal(token.status, 200, JSON.stringify(token.body));
    assert.equal(token.body.token_type, 'Bearer');
    assert.equal(token.headers['cache-control'], 'no-store');
    const program = token.body.access_token as string;

    assert.equal((await server.request('GET', '/pacientes', { token: program })).status, 200);
    const patient = await server.request('POST', '/pacientes', {
      token: program,
      body: registration(),
    });
    assert.equal(patient.status, 201, JSON.stringify(patient.body));
    const [event] = (await server.services.events.readStream(`${companyId}.patient-${patient.body.id}`)).slice(0, 1);
    assert.equal(event?.metadata.actor, `client:${clientId}`);

    assert.equal((await server.request('GET', '/tenants', { token: program })).status, 403, 'session routes are for people');
    assert.equal((await server.request('GET', '/usuarios', { token: program })).status, 403);

    const wrong = await clientToken(server, clientId, 'not-the-secret');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');

    const revoked = await server.request('POST', `/integraciones/${clientId}/revocacion`, {
      token: admin.accessToken,
      body: { reason: 'lab contract ended' },
    });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal((await server.request('GET', '/pacientes', { token: program })).status, 401);
    assert.equal((await clientToken(server, clientId, clientSecret)).status, 401);
  });
});

describe('Administration: secrets never reach the log', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());

  it('keeps activation tokens and client secrets only as hashes, even when the request carried an Idempotency-Key', async () => {
    const platform = await server.signInAndSelect(server.admin);
    const headers = { 'idempotency-key': 'retry-safe-1' };
    const registered = await server.request('POST', '/empresas', {
      token: platform,
      headers,
      body: { ...LIMA_PROFILE, admin: { email: 'adm@secret.pe', name: 'Adm' } },
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const admin = await activateAndEnroll(server, 'adm@secret.pe', registered.body.admin.activation.token);
    await server.selectTenant(admin.accessToken, registered.body.company.id);
    const invited = await server.request('POST', '/usuarios', {
      token: admin.accessToken,
      headers,
      body: { email: 'n@secret.pe', name: 'N', roles: ['nurse'] },
    });
    const client = await server.request('POST', '/integraciones', {
      token: admin.accessToken,
      headers,
      body: { name: 'Lab', roles: ['nurse'] },
    });
    const secrets = [registered.body.admin.activation.token, invited.body.activation.token, client.body.clientSecret] as string[];
    const log = JSON.stringify(await server.services.events.readAll(), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    for (const secret of secrets) assert.ok(!log.includes(secret.split('.').pop()!), 'a secret was written to the event log');
  });
});
