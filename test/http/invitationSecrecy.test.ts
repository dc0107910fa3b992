// The inviting company can never tell whether an address already had an account, by any route it can reach. With
// SMTP_URL the invitation's token goes only to the address (the company never holds a secret); without it the company
// is the token's courier, and POST /auth/activate answers an existing account's invitation token exactly like a new
// account's for every input short of completing an activation (the one deliberate difference, documented).
import assert from 'node:assert/strict';
import { startTestServer, type ApiJson, type HttpAnswer, type TestAccount, type TestServer } from '../support/harness.js';
import { lastTokenTo, startMailServer, type TestMailServer } from '../support/mailServer.js';
import { activateAndEnroll, STRONG_PASSWORD } from './adminWorld.js';
import { LIMITS } from '../../src/limits.js';

interface Invited {
  email: string;
  name: string;
  userId: string;
  token?: string;
}

/** A body with what differs per person or per request set aside: ids, addresses, names, tokens and times. */
function shapeOf(value: ApiJson): ApiJson {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') {
    const varying = ['id', 'email', 'token', 'expiresAt', 'memberSince', 'name', 'instance', 'correlationId'];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, varying.includes(k) ? typeof v : shapeOf(v)]));
  }
  return value;
}

const answerOf = (a: HttpAnswer) => ({ status: a.status, body: shapeOf(a.body), retryAfter: a.headers['retry-after'] ?? null });

/** Everything the company can send to POST /auth/activate with an invitation's token without completing an activation. */
function probesFor(invited: Invited, token: string): Array<{ what: string; body: { token: string; password: string } }> {
  const local = invited.email.split('@')[0]!;
  const [userId] = token.split('.');
  const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
  return [
    { what: 'too short', body: { token, password: 'corta' } },
    { what: 'too long', body: { token, password: 'x'.repeat(LIMITS.newPassword.maxChars + 1) } },
    { what: 'breached', body: { token, password: 'password1234' } },
    { what: 'the e-mail name the company entered', body: { token, password: `${local} bajo la lluvia` } },
    { what: 'the name the company entered', body: { token, password: `${invited.name} bajo la lluvia` } },
    { what: 'a wrong token, weak password', body: { token: flipped, password: 'corta' } },
    { what: 'a wrong token, strong password', body: { token: flipped, password: STRONG_PASSWORD } },
    { what: 'a guessed token of the account', body: { token: `${userId}.${'A'.repeat(43)}`, password: 'corta' } },
  ];
}

describe('Invitations never tell the inviting company whether the address had an account', () => {
  const newAddress = { email: 'nueva@sur.example', name: 'Carmen Rojas' };
  const knownAddress = { email: 'jefa@norte.example', name: 'Elena Paredes' };
  const knownPassword = 'el cerro de enfrente se ve desde la sala';

  describe('without e-mail (no SMTP_URL): the company is the courier of the token', () => {
    let server: TestServer;
    let admin: string;
    const invite = (who: { email: string; name: string }) =>
      server.request('POST', '/usuarios', { token: admin, body: { ...who, roles: ['nurse'] } });
    let attempts = 0;
    const activate = async (body: { token: string; password: string }) => {
      // The activation throttle counts per address and minute: a new minute before it would answer 429.
      if (++attempts % LIMITS.throttling.login.perIpPerMinute === 0) server.clock.advance(61_000);
      return server.request('POST', '/auth/activate', { body });
    };
    /** Each probe, answered for the new address's token and for the existing account's: the same answers. */
    async function sameAnswers(fresh: Invited & { token: string }, known: Invited & { token: string }): Promise<void> {
      const a = probesFor(fresh, fresh.token);
      const b = probesFor(known, known.token);
      for (let i = 0; i < a.length; i++) {
        const [forNew, forKnown] = [await activate(a[i]!.body), await activate(b[i]!.body)];
        assert.notEqual(forNew.status, 200, `${a[i]!.what}: no activation completes`);
        assert.deepEqual(answerOf(forKnown), answerOf(forNew), `${a[i]!.what}: ${JSON.stringify([forNew.body, forKnown.body])}`);
      }
    }
    before(async () => {
      server = await startTestServer();
      await server.createCompanyWithAdmin('Norte', knownAddress.email, knownPassword);
    });
    beforeEach(async () => (admin = await server.signInAndSelect(server.admin)));
    after(async () => server?.close());

    it('answers every activation probe with the invitation token the same, then for re-issued tokens too', async () => {
      const [toNew, toKnown] = [await invite(newAddress), await invite(knownAddress)];
      assert.deepEqual([toNew.status, toKnown.status], [201, 201], JSON.stringify([toNew.body, toKnown.body]));
      assert.deepEqual(shapeOf(toKnown.body), shapeOf(toNew.body));
      assert.equal(typeof toNew.body.activation.token, 'string', 'without e-mail the company hands the token over');
      const fresh = { ...newAddress, userId: toNew.body.user.id, token: toNew.body.activation.token };
      const known = { ...knownAddress, userId: toKnown.body.user.id, token: toKnown.body.activation.token };
      await sameAnswers(fresh, known);

      // The existing account's own name is never what its invitation token is judged against.
      const withRealName = await activate({ token: known.token, password: 'la sala de norte tiene ventanas' });
      const unknown = await activate({ token: `${known.userId}.${'B'.repeat(43)}`, password: 'la sala de norte tiene ventanas' });
      assert.deepEqual(answerOf(withRealName), answerOf(unknown), JSON.stringify(withRealName.body));

      const reissue = (who: Invited) =>
        server.request('POST', `/usuarios/${who.userId}/activacion`, { token: admin, body: { reason: 'no le llegó' } });
      const [againNew, againKnown] = [await reissue(fresh), await reissue(known)];
      assert.deepEqual([againNew.status, againKnown.status], [200, 200], JSON.stringify([againNew.body, againKnown.body]));
      assert.deepEqual(shapeOf(againKnown.body), shapeOf(againNew.body));
      // The replaced tokens answer alike, and so do the new ones.
      await sameAnswers(fresh, known);
      await sameAnswers({ ...fresh, token: againNew.body.activation.token }, { ...known, token: againKnown.body.activation.token });

      // Withdrawn, both still show only what the company entered.
      const withdraw = (who: Invited) =>
        server.request('POST', `/usuarios/${who.userId}/revocacion`, { token: admin, body: { reason: 'ya no' } });
      const [goneNew, goneKnown] = [await withdraw(fresh), await withdraw(known)];
      assert.deepEqual([goneNew.status, goneKnown.status], [200, 200], JSON.stringify([goneNew.body, goneKnown.body]));
      assert.deepEqual(shapeOf(goneKnown.body), shapeOf(goneNew.body));
      assert.equal(goneKnown.body.name, knownAddress.name);
    });

    it('the one difference, documented: a strong password activates only a new account; the other token is refused like an unknown one', async () => {
      const fresh = await invite({ email: 'otra@sur.example', name: 'Otra Persona' });
      const holder = await server.createCompanyWithAdmin('Centro', 'dueno@centro.example', knownPassword);
      const toHolder = await invite({ email: holder.email, name: 'Dueño' });
      assert.deepEqual([fresh.status, toHolder.status], [201, 201]);
      const refused = await activate({ token: toHolder.body.activation.token, password: STRONG_PASSWORD });
      const unknown = await activate({ token: `${holder.userId}.${'C'.repeat(43)}`, password: STRONG_PASSWORD });
      assert.deepEqual(answerOf(refused), answerOf(unknown), JSON.stringify(refused.body));
      assert.equal(refused.body.type, '/problems/activation-invalid');
      const activated = await activate({ token: fresh.body.activation.token, password: STRONG_PASSWORD });
      assert.equal(activated.status, 200, JSON.stringify(activated.body));
      // The refused attempt spent nothing: the holder still accepts with the token, signed in.
      const { accessToken } = await server.signIn(holder.email, holder.password, holder.totpSecret);
      const accepted = await server.request('POST', `/auth/invitations/${server.admin.companyId}/accept`, {
        token: accessToken,
        body: { token: toHolder.body.activation.token },
      });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    });
  });

  describe('with e-mail (SMTP_URL): the token goes only to the address', () => {
    let mail: TestMailServer;
    let server: TestServer;
    let admin: string;
    let holder: TestAccount;
    const invite = (who: { email: string; name: string }) =>
      server.request('POST', '/usuarios', { token: admin, body: { ...who, roles: ['nurse'] } });
    before(async () => {
      mail = await startMailServer();
      server = await startTestServer({ env: { SMTP_URL: mail.url, MAIL_FROM: 'Renal <no-reply@renal.example>' } });
      admin = await server.signInAndSelect(server.admin);
      holder = await server.createCompanyWithAdmin('Norte', knownAddress.email, knownPassword);
    });
    after(async () => {
      await server?.close();
      await mail?.close();
    });

    it('neither the invitation nor a re-issue answers a token; the e-mailed ones work for their holders', async () => {
      const [toNew, toKnown] = [await invite(newAddress), await invite(knownAddress)];
      assert.deepEqual([toNew.status, toKnown.status], [201, 201], JSON.stringify([toNew.body, toKnown.body]));
      for (const answer of [toNew, toKnown]) {
        assert.deepEqual(Object.keys(answer.body.activation), ['expiresAt'], JSON.stringify(answer.body));
        assert.equal(answer.body.emailed, true);
      }
      assert.deepEqual(shapeOf(toKnown.body), shapeOf(toNew.body));
      const mailedNew = lastTokenTo(mail, newAddress.email);
      const mailedKnown = lastTokenTo(mail, knownAddress.email);
      assert.ok(!JSON.stringify([toNew, toKnown]).includes(mailedNew.split('.')[1]!), 'the company never sees a token');
      assert.ok(!JSON.stringify([toNew, toKnown]).includes(mailedKnown.split('.')[1]!), 'the company never sees a token');

      const reissue = (userId: string) =>
        server.request('POST', `/usuarios/${userId}/activacion`, { token: admin, body: { reason: 'no le llegó' } });
      const [againNew, againKnown] = [await reissue(toNew.body.user.id), await reissue(toKnown.body.user.id)];
      assert.deepEqual([againNew.status, againKnown.status], [200, 200], JSON.stringify([againNew.body, againKnown.body]));
      for (const answer of [againNew, againKnown]) {
        assert.deepEqual(answer.body, { activation: { expiresAt: answer.body.activation.expiresAt }, emailed: true });
      }
      const [newAgain, knownAgain] = [lastTokenTo(mail, newAddress.email), lastTokenTo(mail, knownAddress.email)];
      assert.notEqual(newAgain, mailedNew);
      assert.notEqual(knownAgain, mailedKnown);

      // The holders use what reached their addresses: the new account is activated, the existing one accepts signed in.
      const person = await activateAndEnroll(server, newAddress.email, newAgain);
      assert.equal((await server.selectTenant(person.accessToken, server.admin.companyId)).status, 200);
      const { accessToken } = await server.signIn(knownAddress.email, knownPassword, holder.totpSecret);
      const accepted = await server.request('POST', `/auth/invitations/${server.admin.companyId}/accept`, {
        token: accessToken,
        body: { token: knownAgain },
      });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    });
  });
});
