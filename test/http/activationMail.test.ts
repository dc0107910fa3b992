// With SMTP_URL set, an invitation's token is e-mailed to the address only (nodemailer, real SMTP to an in-process
// server): the company's answer carries no token. A mail server that cannot be reached never undoes the invitation: the
// answer says the token was not sent, and the company re-issues it.
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/harness.js';
import { lastTokenTo, startMailServer, type TestMailServer } from '../support/mailServer.js';

describe('Invitation e-mail (SMTP_URL)', () => {
  let mail: TestMailServer;
  let server: TestServer;
  let token: string;
  before(async () => {
    mail = await startMailServer();
    server = await startTestServer({ env: { SMTP_URL: mail.url, MAIL_FROM: 'Renal <no-reply@renal.example>' } });
    token = await server.signInAndSelect(server.admin);
  });
  after(async () => {
    await server?.close();
    await mail?.close();
  });

  it('e-mails the activation token to the invited person only, and the token activates the account', async () => {
    const invited = await server.request('POST', '/usuarios', {
      token,
      body: { email: 'Rosa@Renal.example', name: 'Rosa', roles: ['nurse'] },
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    assert.equal(invited.body.emailed, true);
    const message = mail.received.find((m) => m.to.includes('rosa@renal.example'));
    assert.ok(message, 'the mail server received the invitation');
    assert.equal(message.from, 'no-reply@renal.example');
    assert.deepEqual(Object.keys(invited.body.activation), ['expiresAt'], 'the company never holds the token');
    const activationToken = lastTokenTo(mail, 'rosa@renal.example');
    const activated = await server.request('POST', '/auth/activate', {
      body: { token: activationToken, password: 'la sala tres tiene ventanas grandes' },
    });
    assert.equal(activated.status, 200);
  });

  it('e-mails an address that already has an account the token that accepts the membership, which it needs signed in', async () => {
    const other = await server.createCompanyWithAdmin('Norte', 'jefa@norte.example', 'riñón azul bajo la lluvia de marzo');
    const invited = await server.request('POST', '/usuarios', {
      token,
      body: { email: 'jefa@norte.example', name: 'Jefa', roles: ['nurse'] },
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    assert.equal(invited.body.emailed, true);
    const message = mail.received.find((m) => m.to.includes('jefa@norte.example'));
    assert.ok(message, 'the address received the invitation');
    assert.equal(invited.body.activation.token, undefined, 'the company never holds the token');
    const mailed = lastTokenTo(mail, 'jefa@norte.example');
    assert.ok(message.text.replace(/=\r?\n/g, '').includes('/auth/invitations'), 'it says where to accept');
    const { accessToken } = await server.signIn(other.email, other.password, other.totpSecret);
    const accepted = await server.request('POST', `/auth/invitations/${server.admin.companyId}/accept`, {
      token: accessToken,
      body: { token: mailed },
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  });

  it('still invites when the mail server is down, says the token was not sent, and still answers none', async () => {
    await mail.close();
    const invited = await server.request('POST', '/usuarios', {
      token,
      body: { email: 'luis@renal.example', name: 'Luis', roles: ['nurse'] },
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    assert.equal(invited.body.emailed, false);
    assert.deepEqual(Object.keys(invited.body.activation), ['expiresAt'], 'a failed send hands the company no token either');
  });
});
