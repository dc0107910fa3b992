// Nobody acts on someone more privileged than themselves, over HTTP: a role with only `usuarios:admin` must not take an
// admin client's secret, an admin invitee's activation, the admin's second factor, roles or membership.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { deref } from './openApiShape.js';
import { activateAndEnroll, clientToken, LIMA_PROFILE, registerCompany, signInto, type Person } from './adminWorld.js';

const MORE_PRIVILEGED = '/problems/target-more-privileged';

describe('Administration: nobody acts on someone more privileged than themselves', () => {
  let server: TestServer;
  let companyId: string;
  let admin: Person & { accessToken: string };
  let hr: Person & { accessToken: string };
  let keeper: Person & { accessToken: string };
  let deputyId: string;
  let robot: { id: string; secret: string };

  const as = (token: string) => ({
    post: (path: string, body: unknown) => server.request('POST', path, { token, body }),
    put: (path: string, body: unknown) => server.request('PUT', path, { token, body }),
  });
  const created = async (path: string, body: unknown) => {
    const answer = await as(admin.accessToken).post(path, body);
    assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const member = async (email: string, roles: string[]) => {
    const invited = await created('/usuarios', { email, name: email.split('@')[0], roles });
    const person = await activateAndEnroll(server, email, invited.activation.token);
    return { ...person, accessToken: await signInto(server, person, companyId) };
  };
  const refused = (answer: { status: number; body: { type?: string } }) => {
    assert.equal(answer.status, 403, JSON.stringify(answer.body));
    assert.equal(answer.body.type, MORE_PRIVILEGED);
  };

  before(async () => {
    server = await startTestServer();
    const platform = await server.signInAndSelect(server.admin);
    const registered = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      taxId: { type: 'RUC', number: '20131312955' },
      admin: { email: 'jefa@privilegio.pe', name: 'Jefa' },
    });
    companyId = registered.company.id;
    admin = await activateAndEnroll(server, 'jefa@privilegio.pe', registered.admin.activation.token);
    admin.accessToken = await signInto(server, admin, companyId);
    await created('/roles', { code: 'people', name: 'People', permissions: ['usuarios:admin'] });
    await created('/roles', { code: 'role-keeper', name: 'Role keeper', permissions: ['roles:admin', 'pacientes:read'] });
    hr = await member('rrhh@privilegio.pe', ['people']);
    keeper = await member('roles@privilegio.pe', ['role-keeper']);
    // A second admin who never activated: the company keeps an admin, so only the privilege rule can stop a demotion.
    deputyId = (await created('/usuarios', { email: 'suplente@privilegio.pe', name: 'Suplente', roles: ['admin'] })).user.id;
    const client = await created('/integraciones', { name: 'Robot', roles: ['admin'] });
    robot = { id: client.client.id, secret: client.clientSecret };
  });
  beforeEach(async () => {
    admin.accessToken = await signInto(server, admin, companyId);
    hr.accessToken = await signInto(server, hr, companyId);
    keeper.accessToken = await signInto(server, keeper, companyId);
  });
  after(async () => server?.close());

  it("gets no admin client's new secret, and neither changes its roles nor revokes it", async () => {
    refused(await as(hr.accessToken).post(`/integraciones/${robot.id}/rotacion`, { reason: 'take it over' }));
    refused(await as(hr.accessToken).put(`/integraciones/${robot.id}/roles`, { roles: ['people'], reason: 'demote it' }));
    refused(await as(hr.accessToken).post(`/integraciones/${robot.id}/revocacion`, { reason: 'lock it out' }));
    assert.equal((await clientToken(server, robot.id, robot.secret)).status, 200, 'the program keeps its secret');
    const program = await created('/integraciones', { name: 'HR sync', roles: ['people'] });
    const programToken = (await clientToken(server, program.client.id, program.clientSecret)).body.access_token as string;
    refused(await as(programToken).post(`/integraciones/${robot.id}/rotacion`, { reason: 'a program is no exception' }));
  });

  it("gets no activation token of an admin invitee and resets no admin's second factor", async () => {
    refused(await as(hr.accessToken).post(`/usuarios/${deputyId}/activacion`, { reason: 'take the invitation' }));
    refused(await as(hr.accessToken).post(`/usuarios/${admin.userId}/reinicio-2fa`, { reason: 'lost phone, they say' }));
    const me = await server.request('GET', '/auth/me', { token: admin.accessToken });
    assert.equal(me.status, 200, "the admin's session lives on");
    assert.equal(me.body.totpEnrolled, true);
  });

  it('neither invites with a role it lacks nor withdraws a pending admin invitation', async () => {
    const invite = await as(hr.accessToken).post('/usuarios', { email: 'otro-admin@privilegio.pe', name: 'Otro', roles: ['admin'] });
    assert.equal(invite.status, 403, JSON.stringify(invite.body));
    assert.equal(invite.body.type, '/problems/grant-beyond-caller');
    refused(await as(hr.accessToken).post(`/usuarios/${deputyId}/revocacion`, { reason: 'withdraw it' }));
    const read = await server.request('GET', `/usuarios/${deputyId}`, { token: admin.accessToken });
    assert.deepEqual([read.body.roles, read.body.membership], [['admin'], 'pending']);
  });

  it('neither demotes nor revokes the company admin', async () => {
    refused(await as(hr.accessToken).put(`/usuarios/${admin.userId}/roles`, { roles: ['people'], reason: 'demote' }));
    refused(await as(hr.accessToken).post(`/usuarios/${admin.userId}/revocacion`, { reason: 'out' }));
    const read = await server.request('GET', `/usuarios/${admin.userId}`, { token: admin.accessToken });
    assert.deepEqual([read.body.roles, read.body.membership], [['admin'], 'active']);
  });

  it('acts on peers it outranks or matches; the admin acts on everyone', async () => {
    const peer = await created('/usuarios', { email: 'par@privilegio.pe', name: 'Par', roles: ['people'] });
    const reissued = await as(hr.accessToken).post(`/usuarios/${peer.user.id}/activacion`, { reason: 'lost the mail' });
    assert.equal(reissued.status, 200, JSON.stringify(reissued.body));
    const peerClient = await created('/integraciones', { name: 'Peer', roles: ['people'] });
    const rotated = await as(hr.accessToken).post(`/integraciones/${peerClient.client.id}/rotacion`, { reason: 'leaked' });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const grant = await as(hr.accessToken).put(`/integraciones/${peerClient.client.id}/roles`, { roles: ['admin'], reason: 'x' });
    assert.equal(grant.status, 403);
    assert.equal(grant.body.type, '/problems/grant-beyond-caller', 'nobody grants more than they hold');
    const byAdmin = await as(admin.accessToken).post(`/integraciones/${robot.id}/rotacion`, { reason: 'yearly', graceSeconds: 3600 });
    assert.equal(byAdmin.status, 200, JSON.stringify(byAdmin.body));
    robot.secret = byAdmin.body.clientSecret;
    const demoted = await as(admin.accessToken).put(`/usuarios/${hr.userId}/roles`, { roles: ['people'], reason: 'same' });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
  });

  it('changes no role held by someone more privileged, nor one granting what it lacks', async () => {
    await created('/roles', { code: 'reader', name: 'Reader', permissions: ['pacientes:read'] });
    await created('/roles', { code: 'signer', name: 'Signer', permissions: ['dialisis:sign'] });
    await created('/usuarios', { email: 'enfermera@privilegio.pe', name: 'Enfermera', roles: ['reader', 'nurse'] });
    const keeperAs = as(keeper.accessToken);
    refused(await keeperAs.put('/roles/reader', { name: 'Reader', permissions: [], reason: 'strip the nurse' }));
    refused(await keeperAs.put('/roles/signer', { name: 'Signer', permissions: [], reason: 'strip what I lack' }));
    refused(await keeperAs.post('/roles/signer/retiro', { reason: 'retire what I lack' }));
    await created('/roles', { code: 'lonely', name: 'Lonely', permissions: ['pacientes:read'] });
    await created('/usuarios', { email: 'lectora@privilegio.pe', name: 'Lectora', roles: ['lonely'] });
    const mine = await keeperAs.put('/roles/lonely', { name: 'Lonely reader', permissions: ['pacientes:read'], reason: 'rename' });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
  });

  it('the contract names the refusal on every route it guards, next to the framework reasons', async () => {
    const doc = (await server.request('GET', '/openapi.json')).body;
    const guarded = [
      ['put', '/usuarios/{id}/roles'],
      ['post', '/usuarios/{id}/revocacion'],
      ['post', '/usuarios/{id}/reinicio-2fa'],
      ['post', '/usuarios/{id}/activacion'],
      ['post', '/integraciones/{id}/rotacion'],
      ['put', '/integraciones/{id}/roles'],
      ['post', '/integraciones/{id}/revocacion'],
      ['put', '/roles/{code}'],
      ['post', '/roles/{code}/retiro'],
    ];
    for (const [method, path] of guarded) {
      const forbidden = deref(doc.paths[path!][method!].responses['403'], doc).description as string;
      assert.match(forbidden, /target-more-privileged/, `${method} ${path}`);
      assert.match(forbidden, /missing permission/, `${method} ${path}: the framework reasons stay`);
    }
    assert.match(doc.info.description, /target-more-privileged/);
  });
});
