// The rules of the administration groups over HTTP: company registration and its checks, suspension, modules, roles,
// invitations of existing accounts, activation tokens, password policy, own password change, second-factor reset,
// API client secret rotation.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { activateAndEnroll, clientToken, LIMA_PROFILE, registerCompany, signInto, STRONG_PASSWORD, type Person } from './adminWorld.js';
import { registration } from './pacientesWorld.js';
import { handleCommand } from '../../src/commands/handleCommand.js';
import { uniqueClaimDecider } from '../../src/commands/uniqueClaim.js';
import { guardId, type UniqueGuard } from '../../src/commands/uniqueClaimWrites.js';
import { platformContext } from '../../src/commands/platform/platformWrites.js';

describe('Administration rules over HTTP', () => {
  let server: TestServer;
  let platform: string;
  let companyId: string;
  let admin: Person & { accessToken: string };
  before(async () => {
    server = await startTestServer();
    platform = await server.signInAndSelect(server.admin);
    const registered = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      taxId: { type: 'RUC', number: '20100047218' },
      modules: ['Dialisis'],
      admin: { email: 'jefa@renal.pe', name: 'Jefa' },
    });
    companyId = registered.company.id;
    admin = await activateAndEnroll(server, 'jefa@renal.pe', registered.admin.activation.token);
    await server.selectTenant(admin.accessToken, companyId);
  });
  after(async () => server?.close());
  // Some steps move the clock by days: every step starts with fresh sessions.
  beforeEach(async () => {
    platform = await server.signInAndSelect(server.admin);
    admin.accessToken = await signInto(server, admin, companyId);
  });

  const invite = async (email: string, roles: string[]) => {
    const answer = await server.request('POST', '/usuarios', {
      token: admin.accessToken,
      body: { email, name: email.split('@')[0], roles },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body;
  };

  it('registration checks the tax id with its check digit and keeps it unique on the platform; company roles never register companies', async () => {
    const badDigit = await server.request('POST', '/empresas', {
      token: platform,
      body: { ...LIMA_PROFILE, taxId: { type: 'RUC', number: '20131312956' }, admin: { email: 'x@y.pe', name: 'X' } },
    });
    assert.equal(badDigit.status, 422);
    assert.ok(
      badDigit.body.errors.some((e: { pointer: string }) => e.pointer === '/body/taxId/number'),
      JSON.stringify(badDigit.body),
    );
    const taken = await server.request('POST', '/empresas', {
      token: platform,
      body: { ...LIMA_PROFILE, taxId: { type: 'RUC', number: '20100047218' }, admin: { email: 'y@y.pe', name: 'Y' } },
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.type, '/problems/tax-id-taken');
    const byCompanyAdmin = await server.request('POST', '/empresas', {
      token: admin.accessToken,
      body: { ...LIMA_PROFILE, taxId: { type: 'RUC', number: '20131312955' }, admin: { email: 'z@y.pe', name: 'Z' } },
    });
    assert.equal(byCompanyAdmin.status, 403);
    assert.equal((await server.request('GET', '/empresas', { token: admin.accessToken })).status, 403);
    const self = await server.request('POST', `/usuarios/${server.admin.userId}/desactivacion`, {
      token: platform,
      body: { reason: 'oops' },
    });
    assert.equal(self.status, 409, 'the platform administrator cannot lock themselves out');
    const list = await server.request('GET', '/empresas', { token: platform });
    assert.ok(list.body.items.some((c: { id: string }) => c.id === companyId));
  });

  it('the company admin reads and corrects the company with If-Match; each correction needs a reason', async () => {
    const read = await server.request('GET', '/empresas/actual', { token: admin.accessToken });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.modules, ['Dialisis']);
    const missing = await server.request('PATCH', '/empresas/actual', {
      token: admin.accessToken,
      body: { tradeName: 'Renal Centro', reason: 'rebranding' },
    });
    assert.equal(missing.status, 428);
    const wildcard = await server.request('PATCH', '/empresas/actual', {
      token: admin.accessToken,
      headers: { 'if-match': '*' },
      body: { tradeName: 'Renal Centro', reason: 'rebranding' },
    });
    assert.equal(wildcard.status, 428, 'a required If-Match names the revision read, never *');
    const stale = await server.request('PATCH', '/empresas/actual', {
      token: admin.accessToken,
      headers: { 'if-match': 'W/"999"' },
      body: { tradeName: 'Renal Centro', reason: 'rebranding' },
    });
    assert.equal(stale.status, 412);
    const corrected = await server.request('PATCH', '/empresas/actual', {
      token: admin.accessToken,
      headers: { 'if-match': read.headers.etag! },
      body: { tradeName: 'Renal Centro', reason: 'rebranding' },
    });
    assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
    assert.equal(corrected.body.name, 'Renal Centro');
    assert.notEqual(corrected.headers.etag, read.headers.etag);
    const tenants = await server.request('GET', '/tenants', { token: admin.accessToken });
    assert.ok(tenants.body.items.some((t: { name: string }) => t.name === 'Renal Centro'));
  });

  it('switches optional modules by name; an unknown module is refused', async () => {
    const me = await server.request('GET', '/auth/me', { token: admin.accessToken });
    assert.equal(me.status, 200);
    const modules = await server.request('PUT', '/empresas/actual/modulos', {
      token: admin.accessToken,
      body: { modules: ['Dialisis', 'Productos'], reason: 'stock' },
    });
    assert.equal(modules.status, 200, JSON.stringify(modules.body));
    assert.deepEqual(modules.body.modules, ['Dialisis', 'Productos']);
    const unknown = await server.request('PUT', '/empresas/actual/modulos', {
      token: admin.accessToken,
      body: { modules: ['Pacientes'], reason: 'x' },
    });
    assert.equal(unknown.status, 422);
  });

  it('GET /roles lists built-in roles with what each grants, and the catalogue comes from the groups', async () => {
    const roles = await server.request('GET', '/roles', { token: admin.accessToken });
    assert.equal(roles.status, 200);
    const byCode = new Map<string, { permissions: string[]; builtIn: boolean }>(roles.body.items.map((r: { code: string }) => [r.code, r]));
    for (const code of [
      'admin',
      'medical-director',
      'physician',
      'nurse',
      'nursing-technician',
      'biomedical-technician',
      'reprocessing-technician',
      'pharmacist',
      'receptionist',
      'billing',
      'auditor',
    ]) {
      assert.ok(byCode.get(code)?.builtIn, code);
    }
    assert.ok(byCode.get('nurse')!.permissions.includes('pacientes:write'));
    assert.ok(!byCode.get('nurse')!.permissions.includes('usuarios:admin'));
    assert.ok(!byCode.get('auditor')!.permissions.some((p) => p.endsWith(':write') || p.endsWith(':admin')));
    const catalogue = await server.request('GET', '/roles/permisos', { token: admin.accessToken });
    const names = catalogue.body.items.map((e: { permission: string }) => e.permission);
    for (const p of ['pacientes:read', 'usuarios:admin', 'roles:admin', 'empresas:admin']) assert.ok(names.includes(p), p);
    // The admin also holds every module of the company ('mod.*', issue 26), which the group catalogue does not list.
    assert.deepEqual(
      byCode.get('admin')!.permissions.filter((p) => p !== 'mod.*'),
      names,
    );
    assert.ok(byCode.get('admin')!.permissions.includes('mod.*'));
  });

  it('a custom role takes effect on the next request, without signing in again; nobody removes the last admin', async () => {
    const role = await server.request('POST', '/roles', {
      token: admin.accessToken,
      body: { code: 'archivist', name: 'Archivo', permissions: ['pacientes:read'] },
    });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const outside = await server.request('POST', '/roles', {
      token: admin.accessToken,
      body: { code: 'root', name: 'Root', permissions: ['sistema:proyecciones'] },
    });
    assert.equal(outside.status, 422);
    const invited = await invite('archivo@renal.pe', ['archivist']);
    const person = await activateAndEnroll(server, 'archivo@renal.pe', invited.activation.token);
    const token = await signInto(server, person, companyId);
    assert.equal((await server.request('GET', '/pacientes', { token })).status, 200);
    assert.equal((await server.request('POST', '/pacientes', { token, body: registration() })).status, 403);
    const widened = await server.request('PUT', '/roles/archivist', {
      token: admin.accessToken,
      body: { name: 'Archivo', permissions: ['pacientes:read', 'pacientes:write'], reason: 'admissions too' },
    });
    assert.equal(widened.status, 200, JSON.stringify(widened.body));
    assert.equal((await server.request('POST', '/pacientes', { token, body: registration() })).status, 201);
    const held = await server.request('POST', '/roles/archivist/retiro', { token: admin.accessToken, body: { reason: 'x' } });
    assert.equal(held.status, 409);
    assert.equal(held.body.type, '/problems/role-in-use');

    const lastAdmin = await server.request('PUT', `/usuarios/${admin.userId}/roles`, {
      token: admin.accessToken,
      body: { roles: ['nurse'], reason: 'x' },
    });
    assert.equal(lastAdmin.status, 409);
    assert.equal(lastAdmin.body.type, '/problems/last-admin');
    const demoted = await server.request('PUT', `/usuarios/${person.userId}/roles`, {
      token: admin.accessToken,
      body: { roles: ['receptionist'], reason: 'moved to admission' },
    });
    assert.equal(demoted.status, 200);
    assert.deepEqual(demoted.body.roles, ['receptionist']);
    const revoked = await server.request('POST', `/usuarios/${person.userId}/revocacion`, {
      token: admin.accessToken,
      body: { reason: 'left' },
    });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.membership, 'revoked');
    assert.equal((await server.request('GET', '/pacientes', { token })).status, 401, 'her session in this company ended');
  });

  it('the platform appoints another admin to a company; a tax id claimed by a registration that crashed is taken over after the grace period', async () => {
    const appointed = await server.request('POST', `/empresas/${companyId}/administradores`, {
      token: platform,
      body: { admin: { email: 'segunda@renal.pe', name: 'Segunda' }, reason: 'the head nurse also administers' },
    });
    assert.equal(appointed.status, 201, JSON.stringify(appointed.body));
    assert.ok(appointed.body.activation.token);
    const members = await server.request('GET', '/usuarios', { token: admin.accessToken });
    const row = members.body.items.find((u: { email: string }) => u.email === 'segunda@renal.pe');
    assert.deepEqual(row.roles, ['admin']);

    // A registration that died between its tax id claim and the company itself.
    const guard = uniqueClaimDecider('companyTaxId', 'tax-id-taken', 'taken');
    await handleCommand(
      server.services.events,
      guard,
      {
        type: 'ClaimUniqueValue',
        aggregateId: guardId({ decider: guard } as UniqueGuard, 'platform', 'PE:20100070970'),
        data: { holderId: 'ghostcompany', value: 'PE:20100070970' },
      },
      platformContext(server.services, { actor: 'system' }),
    );
    const body = { ...LIMA_PROFILE, taxId: { type: 'RUC', number: '20100070970' }, admin: { email: 'fantasma@renal.pe', name: 'F' } };
    const early = await server.request('POST', '/empresas', { token: platform, body });
    assert.equal(early.status, 409);
    server.clock.advance(11 * 60 * 1000);
    platform = await server.signInAndSelect(server.admin);
    const taken = await server.request('POST', '/empresas', { token: platform, body });
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
  });

  it('an existing account invited by another company gets a pending membership, not a second account', async () => {
    const other = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      taxId: { type: 'RUC', number: '20131312955' },
      tradeName: 'Otra',
      admin: { userId: admin.userId },
    });
    assert.equal(other.admin.accountCreated, false);
    assert.equal(other.admin.activation, null);
    const invited = await invite(server.admin.email, ['auditor']);
    assert.equal(invited.accountCreated, undefined, 'a company is never told whether the address had an account');
    assert.equal(invited.user.membership, 'pending');
    assert.equal(invited.user.id, server.admin.userId);
    const tenants = await server.request('GET', '/tenants', { token: admin.accessToken });
    assert.equal(tenants.body.items.length, 2);
    const twice = await server.request('POST', '/usuarios', {
      token: admin.accessToken,
      body: { email: server.admin.email, name: 'x', roles: ['nurse'] },
    });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.type, '/problems/already-member');
  });

  it('activation tokens work once, expire after 72 h, and passwords follow the policy', async () => {
    const invited = await invite('tarde@renal.pe', ['nurse']);
    const token = invited.activation.token as string;
    const short = await server.request('POST', '/auth/activate', { body: { token, password: 'short pass' } });
    assert.equal(short.status, 422);
    assert.equal(short.body.errors[0].pointer, '/body/password');
    const common = await server.request('POST', '/auth/activate', { body: { token, password: 'passwordpassword' } });
    assert.equal(common.status, 422, JSON.stringify(common.body));
    const ok = await server.request('POST', '/auth/activate', { body: { token, password: STRONG_PASSWORD } });
    assert.equal(ok.status, 200);
    const reused = await server.request('POST', '/auth/activate', { body: { token, password: STRONG_PASSWORD } });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.type, '/problems/activation-invalid');

    const late = await invite('muytarde@renal.pe', ['nurse']);
    server.clock.advance(72 * 3600 * 1000);
    const expired = await server.request('POST', '/auth/activate', { body: { token: late.activation.token, password: STRONG_PASSWORD } });
    assert.equal(expired.status, 400);
    admin.accessToken = await signInto(server, admin, companyId);
    const reissued = await server.request('POST', `/usuarios/${late.user.id}/activacion`, {
      token: admin.accessToken,
      body: { reason: 'expired' },
    });
    assert.equal(reissued.status, 200, JSON.stringify(reissued.body));
    assert.equal(
      (await server.request('POST', '/auth/activate', { body: { token: reissued.body.activation.token, password: STRONG_PASSWORD } }))
        .status,
      200,
    );
  });

  it('a person changes their own password with the current one and a fresh code; other sessions end', async () => {
    const invited = await invite('cambio@renal.pe', ['nurse']);
    const person = await activateAndEnroll(server, 'cambio@renal.pe', invited.activation.token);
    const other = await signInto(server, person, companyId);
    const current = await signInto(server, person, companyId);
    server.nextTotpStep();
    const wrongCurrent = await server.request('POST', '/auth/password', {
      token: current,
      body: {
        currentPassword: 'not it at all',
        code: await server.totpCode(person.totpSecret),
        newPassword: 'otra clave muy larga y nueva',
      },
    });
    assert.equal(wrongCurrent.status, 422);
    server.nextTotpStep();
    const changed = await server.request('POST', '/auth/password', {
      token: current,
      body: {
        currentPassword: person.password,
        code: await server.totpCode(person.totpSecret),
        newPassword: 'otra clave muy larga y nueva',
      },
    });
    assert.equal(changed.status, 204, JSON.stringify(changed.body));
    assert.equal((await server.request('GET', '/pacientes', { token: other })).status, 401);
    assert.equal((await server.request('GET', '/pacientes', { token: current })).status, 200);
    await server.signIn(person.email, 'otra clave muy larga y nueva', person.totpSecret);

    const reset = await server.request('POST', `/usuarios/${person.userId}/reinicio-2fa`, {
      token: admin.accessToken,
      body: { reason: 'lost phone' },
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(reset.body.totpEnrolled, false);
    assert.equal((await server.request('GET', '/pacientes', { token: current })).status, 401);
    const login = await server.request('POST', '/auth/login', { body: { email: person.email, password: 'otra clave muy larga y nueva' } });
    assert.ok(login.body.enrollment?.secret, 'a new enrollment at the next sign-in');
  });

  it('a suspended company reads for audit but writes nothing; reactivation restores it', async () => {
    const token = await signInto(server, admin, companyId);
    const suspended = await server.request('POST', `/empresas/${companyId}/suspension`, {
      token: platform,
      body: { reason: 'contract ended' },
    });
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    assert.equal(suspended.body.status, 'suspended');
    assert.equal((await server.request('GET', '/pacientes', { token })).status, 200);
    const write = await server.request('POST', '/pacientes', { token, body: registration() });
    assert.equal(write.status, 403);
    assert.equal(write.body.type, '/problems/company-suspended');
    assert.equal(
      (await server.request('POST', '/usuarios', { token, body: { email: 'n@renal.pe', name: 'N', roles: ['nurse'] } })).status,
      403,
    );
    const reactivated = await server.request('POST', `/empresas/${companyId}/reactivacion`, {
      token: platform,
      body: { reason: 'renewed' },
    });
    assert.equal(reactivated.body.status, 'active');
    assert.equal((await server.request('POST', '/pacientes', { token, body: registration() })).status, 201);
  });

  it("a rotated secret keeps the old one working for the grace period only; a client's roles change its permissions", async () => {
    const token = await signInto(server, admin, companyId);
    const created = await server.request('POST', '/integraciones', { token, body: { name: 'Facturación', roles: ['receptionist'] } });
    const clientId = created.body.client.id as string;
    const first = created.body.clientSecret as string;
    const rotated = await server.request('POST', `/integraciones/${clientId}/rotacion`, {
      token,
      body: { graceSeconds: 600, reason: 'yearly rotation' },
    });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const second = rotated.body.clientSecret as string;
    assert.equal((await clientToken(server, clientId, first)).status, 200);
    server.clock.advance(601_000);
    assert.equal((await clientToken(server, clientId, first)).status, 401);
    const basic = Buffer.from(`${clientId}:${second}`).toString('base64');
    const viaBasic = await server.request('POST', '/auth/token', {
      body: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}` },
    });
    assert.equal(viaBasic.status, 200, JSON.stringify(viaBasic.body));
    const unsupported = await server.request('POST', '/auth/token', {
      body: { grant_type: 'password', client_id: clientId, client_secret: second },
    });
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.body.error, 'unsupported_grant_type');
    const program = viaBasic.body.access_token as string;
    assert.equal((await server.request('POST', '/pacientes', { token: program, body: registration() })).status, 201);
    await server.request('PUT', `/integraciones/${clientId}/roles`, { token, body: { roles: ['auditor'], reason: 'read only' } });
    assert.equal((await server.request('POST', '/pacientes', { token: program, body: registration() })).status, 403);
    const list = await server.request('GET', '/integraciones', { token });
    assert.ok(list.body.items.every((c: Record<string, unknown>) => !('secretHash' in c) && !('clientSecret' in c)));
  });
});
