// With SMTP_URL set, an invitation's token is also e-mailed to the address (nodemailer, real SMTP to an in-process server);
// a mail server that cannot be reached never undoes the invitation: the answer says the token was not sent.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startTestServer, type TestServer } from '../support/harness.js';

interface Received {
  from: string;
  to: string[];
  text: string;
}

async function startMailServer(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          text: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('Invitation e-mail (SMTP_URL)', () => {
  let mail: Awaited<ReturnType<typeof startMailServer>>;
  let server: TestServer;
  let token: string;
  before(async () => {
    mail = await startMailServer();
    server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${mail.port}`, MAIL_FROM: 'Renal <no-reply@renal.example>' } });
    token = await server.signInAndSelect(server.admin);
  });
  after(async () => {
    await server?.close();
    await mail?.close();
  });

  it('e-mails the activation token to the invited person, and the token activates the account', async () => {
    const invited = await server.request('POST', '/usuarios', {
      token,
      body: { email: 'Rosa@Renal.example', name: 'Rosa', roles: ['nurse'] },
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    assert.equal(invited.body.emailed, true);
    const message = mail.received.find((m) => m.to.includes('rosa@renal.example'));
    assert.ok(message, 'the mail server received the invitation');
    assert.equal(message.from, 'no-reply@renal.example');
    const activationToken = invited.body.activation.token as string;
    assert.ok(message.text.replace(/=\r?\n/g, '').includes(activationToken), 'the token is in the message');
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
    const text = message.text.replace(/=\r?\n/g, '');
    assert.ok(text.includes(invited.body.activation.token), 'the token is in the message');
    assert.ok(text.includes('/auth/invitations'), 'it says where to accept');
    const { accessToken } = await server.signIn(other.email, other.password, other.totpSecret);
    const accepted = await server.request('POST', `/auth/invitations/${server.admin.companyId}/accept`, {
      token: accessToken,
      body: { token: invited.body.activation.token },
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  });

  it('still invites when the mail server is down, and says the token was not sent', async () => {
    await mail.close();
    const invited = await server.request('POST', '/usuarios', {
      token,
      body: { email: 'luis@renal.example', name: 'Luis', roles: ['nurse'] },
    });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    assert.equal(invited.body.emailed, false);
    assert.ok(invited.body.activation.token);
  });
});
