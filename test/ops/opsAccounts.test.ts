// The platform's people operations from the command line: create-company (offline, on a stopped server's data
// directory) and create-admin (through the running service) hand out activation tokens that lead to a real TOTP
// enrollment; reset-2fa makes the person enroll a new authenticator; deactivate refuses sign-in. Events carry the
// reason and the operator as actor.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/harness.js';
import { runOps } from '../support/opsCli.js';
import { activateAndEnroll, STRONG_PASSWORD } from '../http/adminWorld.js';

const COMPANY = [
  '--legal-name',
  'Centro Renal del Sur S.A.C.',
  '--trade-name',
  'Renal Sur',
  '--country',
  'PE',
  '--tax-id',
  'RUC:20100047218',
  '--address',
  'Av. Ejercito 101',
  '--city',
  'Arequipa',
  '--time-zone',
  'America/Lima',
  '--currency',
  'PEN',
];

describe('ops create-company, create-admin, reset-2fa, deactivate', function () {
  this.timeout(90_000);
  let dataDir: string;
  let server: TestServer;
  let companyId: string;
  let activation: string;
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-people-'));
    await (await startTestServer({ dataDir })).close();
    const created = await runOps(dataDir, [
      '--json',
      'create-company',
      ...COMPANY,
      '--admin-email',
      'jefa@sur.pe',
      '--admin-name',
      'Jefa Sur',
      '--reason',
      'new client',
    ]);
    assert.equal(created.code, 0, created.stdout + created.stderr);
    assert.equal(created.json.mode, 'offline');
    companyId = created.json.company.id;
    activation = created.json.admin.activation.token;
    assert.ok(activation);
    server = await startTestServer({ dataDir });
  });
  after(async () => {
    await server?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('create-company requires a reason and prints the activation that leads to enrollment', async () => {
    const refused = await runOps(dataDir, ['create-company', ...COMPANY, '--admin-email', 'x@sur.pe', '--admin-name', 'X']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /--reason/);
    const jefa = await activateAndEnroll(server, 'jefa@sur.pe', activation);
    await server.selectTenant(jefa.accessToken, companyId);
    const events = await server.services.events.readAll({ tenant: 'platform' });
    const registered = events.find((e) => e.type === 'CompanyRegistered' && e.streamName.endsWith(companyId));
    assert.equal(registered?.metadata.reason, 'new client');
    assert.match(registered.metadata.actor, /^ops:/);
  });

  it('create-admin, then reset-2fa: the person enrolls a new authenticator and signs in; deactivate refuses sign-in', async () => {
    const appointed = await runOps(dataDir, [
      'create-admin',
      companyId,
      '--admin-email',
      'segundo@sur.pe',
      '--admin-name',
      'Segundo',
      '--reason',
      'backup admin',
    ]);
    assert.equal(appointed.code, 0, appointed.stdout + appointed.stderr);
    assert.match(appointed.stdout, new RegExp(`through the running service at ${server.url}`));
    const token = /Activation token \(shown once, valid until [^)]+\): (\S+)/.exec(appointed.stdout)?.[1];
    assert.ok(token, appointed.stdout);
    assert.match(appointed.stdout, /POST \/auth\/activate/);
    const person = await activateAndEnroll(server, 'segundo@sur.pe', token);
    assert.equal((await server.request('GET', '/auth/me', { token: person.accessToken })).status, 200);

    const reset = await runOps(dataDir, ['--json', 'reset-2fa', 'Segundo@sur.pe', '--reason', 'lost phone']);
    assert.equal(reset.code, 0, reset.stdout + reset.stderr);
    assert.equal(reset.json.account.totpStatus, 'none');
    assert.equal((await server.request('GET', '/auth/me', { token: person.accessToken })).status, 401, 'sessions ended');
    const resetEvent = (await server.services.events.readAll({ tenant: 'platform' })).find(
      (e) => e.type === 'TwoFactorReset' && e.streamName.endsWith(person.userId),
    );
    assert.equal(resetEvent?.metadata.reason, 'lost phone');
    assert.match(resetEvent.metadata.actor, /^ops:/);

    const login = await server.request('POST', '/auth/login', { body: { email: person.email, password: STRONG_PASSWORD } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const secret = login.body.enrollment?.secret as string;
    assert.ok(secret, 'a new enrollment at the next sign-in');
    assert.notEqual(secret, person.totpSecret);
    server.nextTotpStep();
    const enrolled = await server.request('POST', '/auth/verify-2fa', {
      body: { challenge: login.body.challenge, code: await server.totpCode(secret) },
    });
    assert.equal(enrolled.status, 200, JSON.stringify(enrolled.body));
    await server.signIn(person.email, STRONG_PASSWORD, secret);

    const deactivated = await runOps(dataDir, ['deactivate', person.email, '--reason', 'left the clinic']);
    assert.equal(deactivated.code, 0, deactivated.stdout + deactivated.stderr);
    assert.match(deactivated.stdout, /Deactivated segundo@sur\.pe/);
    const refused = await server.request('POST', '/auth/login', { body: { email: person.email, password: STRONG_PASSWORD } });
    assert.equal(refused.status, 401);
    const unknown = await runOps(dataDir, ['deactivate', 'nadie@sur.pe', '--reason', 'x']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim().split('\n').length, 1);
  });

  it('never deactivates the last active platform administrator (nobody could operate the platform after)', async () => {
    const last = await runOps(dataDir, ['deactivate', server.admin.email, '--reason', 'mistake']);
    assert.equal(last.code, 1, last.stdout + last.stderr);
    assert.match(last.stderr, /last active platform administrator/);
    const login = await server.request('POST', '/auth/login', { body: { email: server.admin.email, password: server.admin.password } });
    assert.equal(login.status, 200, 'still signs in');
  });
});
