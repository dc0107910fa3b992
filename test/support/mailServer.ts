// An in-process SMTP server for HTTP tests: the service sends real mail to it (nodemailer over SMTP_URL) and the test
// reads what each address received.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  text: string;
}

export interface TestMailServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** The messages to an address, oldest first, with quoted-printable soft line breaks undone. */
  textsTo: (address: string) => string[];
  close: () => Promise<void>;
}

export async function startMailServer(): Promise<TestMailServer> {
  const received: ReceivedMail[] = [];
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
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    textsTo: (address) => received.filter((m) => m.to.includes(address)).map((m) => m.text.replace(/=\r?\n/g, '')),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one-time token (`<uuid>.<43 base64url>`) in the latest message to an address. */
export function lastTokenTo(mail: TestMailServer, address: string): string {
  const texts = mail.textsTo(address);
  const token = /[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/.exec(texts[texts.length - 1] ?? '')?.[0];
  if (!token) throw new Error(`no token e-mailed to ${address}`);
  return token;
}
