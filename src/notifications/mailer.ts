// Outgoing e-mail (nodemailer over SMTP_URL): today the activation token of an invitation. Without SMTP_URL nothing is
// sent and the token is only in the API answer. A failed send never undoes the invitation: the answer says it was not sent.
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppServices } from '../services.js';

const transports = new WeakMap<object, Transporter>();

function transportOf(services: AppServices): Transporter | null {
  const url = services.config.smtpUrl;
  if (!url) return null;
  let transport = transports.get(services.config);
  if (!transport) {
    // Short timeouts: the invitation answer waits for the send, and a slow mail server must not hold it for minutes.
    const options = { url, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 };
    transports.set(services.config, (transport = nodemailer.createTransport(options)));
  }
  return transport;
}

export interface ActivationMail {
  to: string;
  name: string;
  companyName: string;
  token: string;
  expiresAt: string;
}

/** True when the SMTP server accepted the message. */
export async function sendActivationMail(services: AppServices, mail: ActivationMail): Promise<boolean> {
  const transport = transportOf(services);
  if (!transport) return false;
  const base = services.config.publicUrl ?? '';
  try {
    await transport.sendMail({
      from: services.config.mailFrom,
      to: mail.to,
      subject: `Invitación a ${mail.companyName}: active su cuenta`,
      text:
        `Hola ${mail.name}:\n\n${mail.companyName} le invitó a su sistema de registros de diálisis.\n` +
        `Para elegir su contraseña, envíe este código de activación a ${base}/auth/activate (válido hasta ${mail.expiresAt} UTC):\n\n` +
        `${mail.token}\n\nSi no esperaba esta invitación, ignore este mensaje.\n`,
    });
    return true;
  } catch (err) {
    services.logger.warn('could not send the activation e-mail', { to: mail.to, error: err });
    return false;
  }
}
