// No account joins a company without its holder's consent, over HTTP: an account another company pre-created and
// activated is only offered a pending membership (nothing of it works until the holder accepts, signed in, with the
// invitation's one-time token); an activation token goes only to the company whose invitation created the account;
// the invitation answer and the member list tell nothing about whether the address already had an account.
import assert from 'node:assert/strict';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';
import { activateAndEnroll, LIMA_PROFILE, registerCompany, signInto, STRONG_PASSWORD, type Person } from './adminWorld.js';
import { LIMITS } from '../../src/limits.js';

type Admin = { companyId: string; admin: Person & { accessToken: string } };

/** What an answer says once ids, addresses, tokens and times are set aside: the same for a new and an existing account. */
function shapeOf(value: ApiJson): ApiJson {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        ['id', 'email', 'token', 'expiresAt', 'memberSince', 'name'].includes(k) ? typeof v : shapeOf(v),
      ]),
    );
  }
  return value;
}

describe('Invitations: no account joins a company without its holder', () => {
  let server: TestServer;
  let platform: string;
  let a: Admin;
  let b: Admin;
  const company = async (taxId: string, email: string): Promise<Admin> => {
    const registered = await registerCompany(server, platform, {
      ...LIMA_PROFILE,
      taxId: { type: 'RUC', number: taxId },
      admin: { email, name: email },
    });
    const admin = await activateAndEnroll(server, email, registered.admin.activation.token);
    await server.selectTenant(admin.accessToken, registered.company.id);
    return { companyId: registered.company.id as string, admin };
  };
  const invite = (by: Admin, email: string, name: string, roles = ['nurse']) =>
    server.request('POST', '/usuarios', { token: by.admin.accessToken, body: { email, name, roles } });
  before(async () => {
    server = await startTestServer();
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

  it('an account another company pre-created and activated only gets a pending membership, which its holder accepts signed in', async () => {
    // Company B's admin creates an account for the employer's address and activates it with B's password and authenticator.
    const planted = await invite(b, 'gerente@a.pe', 'Planted', ['nurse']);
    assert.equal(planted.status, 201, JSON.stringify(planted.body));
    const holder = await activateAndEnroll(server, 'gerente@a.pe', planted.body.activation.token);

    // The real employer, company A, invites that address as its admin.
    const invited = await invite(a, 'gerente@a.pe', 'Gerente General', ['admin']);
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    assert.equal(invited.body.user.membership, 'pending');
    assert.equal(invited.body.user.name, 'Gerente General', 'only what A entered');

    // Nothing of the membership works before acceptance.
    const { accessToken } = await server.signIn(holder.email, holder.password, holder.totpSecret);
    const tenants = await server.request('GET', '/tenants', { token: accessToken });
    assert.deepEqual(
      tenants.body.items.map((t: { id: string }) => t.id),
      [b.companyId],
    );
    const select = await server.request('POST', `/tenants/${a.companyId}/select`, { token: accessToken });
    assert.equal(select.status, 404, JSON.stringify(select.body));

    // The holder sees the invitation (A's name and roles only) and cannot accept it without the invitation's token.
    const pending = await server.request('GET', '/auth/invitations', { token: accessToken });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    assert.deepEqual(
      pending.body.items.map((i: ApiJson) => [i.companyId, i.roles]),
      [[a.companyId, ['admin']]],
    );
    const guessed = await server.request('POST', `/auth/invitations/${a.companyId}/accept`, {
      token: accessToken,
      body: { token: `${holder.userId}.${'A'.repeat(43)}` },
    });
    assert.equal(guessed.status, 400, JSON.stringify(guessed.body));
    assert.equal(guessed.body.type, '/problems/invitation-invalid');
    assert.equal((await server.request('POST', `/tenants/${a.companyId}/select`, { token: accessToken })).status, 404);

    // With the token A's invitation sent to the address, the holder accepts and the membership works.
    const accepted = await server.request('POST', `/auth/invitations/${a.companyId}/accept`, {
      token: accessToken,
      body: { token: invited.body.activation.token },
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const selected = await server.request('POST', `/tenants/${a.companyId}/select`, { token: accessToken });
    assert.equal(selected.status, 200, JSON.stringify(selected.body));
    const row = await server.request('GET', `/usuarios/${holder.userId}`, { token: a.admin.accessToken });
    assert.deepEqual([row.body.membership, row.body.roles], ['active', ['admin']]);
    const again = await server.request('POST', `/auth/invitations/${a.companyId}/accept`, {
      token: accessToken,
      body: { token: invited.body.activation.token },
    });
    assert.equal(again.status, 400, 'the token works once');
  });

  it('an invitee revoked before activation is never issued a token for the next inviting company', async () => {
    const first = await invite(b, 'revocada@x.pe', 'Revocada');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const revoked = await server.request('POST', `/usuarios/${first.body.user.id}/revocacion`, {
      token: b.admin.accessToken,
      body: { reason: 'wrong person' },
    });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));

    const next = await invite(a, 'revocada@x.pe', 'Revocada');
    assert.equal(next.status, 201, JSON.stringify(next.body));
    const taken = await server.request('POST', '/auth/activate', {
      body: { token: next.body.activation.token, password: STRONG_PASSWORD },
    });
    assert.equal(taken.status, 400, 'the next company holds no activation token of an account it did not create');
    assert.equal(taken.body.type, '/problems/activation-invalid');
    const reissued = await server.request('POST', `/usuarios/${first.body.user.id}/activacion`, {
      token: a.admin.accessToken,
      body: { reason: 'lost it' },
    });
    assert.notEqual(reissued.status, 500);
    if (reissued.status === 200) {
      const used = await server.request('POST', '/auth/activate', {
        body: { token: reissued.body.activation.token, password: STRONG_PASSWORD },
      });
      assert.equal(used.status, 400, 'a new token for A is again no activation token');
    }
  });

  it('answers the same whether or not the address has an account, then and later in GET /usuarios', async () => {
    const existing = await invite(b, 'conocida@x.pe', 'Nombre de B');
    const holder = await activateAndEnroll(server, 'conocida@x.pe', existing.body.activation.token);
    await server.signIn(holder.email, holder.password, holder.totpSecret);

    const toExisting = await invite(a, 'conocida@x.pe', 'Nombre de A');
    const toNew = await invite(a, 'nueva@x.pe', 'Nombre de A');
    assert.deepEqual([toExisting.status, toNew.status], [201, 201]);
    assert.deepEqual(shapeOf(toExisting.body), shapeOf(toNew.body), JSON.stringify([toExisting.body, toNew.body]));
    assert.equal(toExisting.body.user.name, 'Nombre de A');
    assert.deepEqual(Object.keys(toExisting.headers).sort(), Object.keys(toNew.headers).sort());

    const list = await server.request('GET', '/usuarios', { token: a.admin.accessToken });
    const rows = ['conocida@x.pe', 'nueva@x.pe'].map((email) => list.body.items.find((u: ApiJson) => u.email === email));
    assert.deepEqual(shapeOf(rows[0]), shapeOf(rows[1]), JSON.stringify(rows));
    assert.deepEqual([rows[0].name, rows[0].totpEnrolled, rows[0].lastSignInAt, rows[0].account], ['Nombre de A', false, null, 'invited']);
    const pending = await server.request('GET', '/usuarios?membresia=pendiente', { token: a.admin.accessToken });
    const emails = pending.body.items.map((u: ApiJson) => u.email);
    assert.ok(emails.includes('conocida@x.pe') && emails.includes('nueva@x.pe'), JSON.stringify(emails));
    assert.ok(pending.body.items.every((u: ApiJson) => u.membership === 'pending'));
    const one = await server.request('GET', `/usuarios/${holder.userId}`, { token: a.admin.accessToken });
    assert.deepEqual(shapeOf(one.body), shapeOf(rows[1]));
    const twice = await Promise.all([invite(a, 'conocida@x.pe', 'x'), invite(a, 'nueva@x.pe', 'x')]);
    assert.deepEqual(
      twice.map((t) => [t.status, t.body.type]),
      [
        [409, '/problems/already-member'],
        [409, '/problems/already-member'],
      ],
    );

    // The new account's own invitation is accepted by activating it: it works at once.
    const person = await activateAndEnroll(server, 'nueva@x.pe', toNew.body.activation.token);
    assert.equal((await server.selectTenant(person.accessToken, a.companyId)).status, 200);
  });

  it(`invitations are throttled per inviter (${LIMITS.invitations.perInviterPerHour}/h) and per company (${LIMITS.invitations.perCompanyPerHour}/h)`, async () => {
    const { perInviterPerHour, perCompanyPerHour } = LIMITS.invitations;
    const c = await company('20100047218', 'jefe@c.pe');
    const helpers: string[] = [];
    let sent = 0;
    for (const email of ['ayuda1@c.pe', 'ayuda2@c.pe']) {
      const invited = await invite(c, email, email, ['admin']);
      sent++;
      const helper = await activateAndEnroll(server, email, invited.body.activation.token);
      helpers.push(await signInto(server, helper, c.companyId));
    }
    for (; sent < perInviterPerHour; sent++) assert.equal((await invite(c, `p${sent}@c.pe`, 'P')).status, 201);
    const throttled = await invite(c, 'uno-mas@c.pe', 'P');
    assert.equal(throttled.status, 429, JSON.stringify(throttled.body));
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    let i = 0;
    while (sent < perCompanyPerHour) {
      const token = helpers[Math.floor(i++ / perInviterPerHour)]!;
      const answer = await server.request('POST', '/usuarios', { token, body: { email: `q${sent}@c.pe`, name: 'Q', roles: ['nurse'] } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      sent++;
    }
    const overCompany = await server.request('POST', '/usuarios', {
      token: helpers[1]!,
      body: { email: 'z@c.pe', name: 'Z', roles: ['nurse'] },
    });
    assert.equal(overCompany.status, 429, JSON.stringify(overCompany.body));
    server.clock.advance(3600 * 1000);
    c.admin.accessToken = await signInto(server, c.admin, c.companyId);
    assert.equal((await invite(c, 'luego@c.pe', 'L')).status, 201, 'an hour later invitations go again');
  });
});
