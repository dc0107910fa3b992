// Outgoing e-mail (nodemailer over SMTP_URL): today an invitation's one-time token (it activates a new account, or
// accepts the membership for an existing one). With SMTP_URL a company's invitation token goes only by e-mail; without
// it nothing is sent and the token is only in the API answer. A failed send never undoes the invitation: the answer
// says it was not sent.
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

/** Whether the service sends e-mail (SMTP_URL): then a company's invitation token reaches only the invited address. */
export const mailConfigured = (services: AppServices): boolean => !!services.config.smtpUrl;

export interface ActivationMail {
  to: string;
  name: string;
  companyName: string;
  token: string;
  expiresAt: string;
  /** What the token does: set the password of the new account (the default), or accept the membership signed in. */
  opens?: 'account' | 'membership';
}

function invitationText(mail: ActivationMail, base: string): string {
  const greeting = `Hola ${mail.name}:\n\n${mail.companyName} le invitó a su sistema de registros de diálisis.\n`;
  const ignore = '\n\nSi no esperaba esta invitación, ignore este mensaje.\n';
  if (mail.opens === 'membership') {
    return (
      greeting +
      `Inicie sesión con su cuenta y acepte la invitación en ${base}/auth/invitations con este código (válido hasta ${mail.expiresAt} UTC); ` +
      `hasta entonces no forma parte de ${mail.companyName}:\n\n${mail.token}` +
      ignore
    );
  }
  return (
    greeting +
    `Para elegir su contraseña, envíe este código de activación a ${base}/auth/activate (válido hasta ${mail.expiresAt} UTC):\n\n` +
    `${mail.token}` +
    ignore
  );
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
      // One subject whatever the token opens: the message says what to do.
      subject: `Invitación a ${mail.companyName}`,
      text: invitationText(mail, base),
    });
    return true;
  } catch (err) {
    services.logger.warn('could not send the invitation e-mail', { to: mail.to, error: err });
    return false;
  }
}

/** A notice to a company's people (e.g. a webhook endpoint disabled): true when the SMTP server accepted it. */
export async function sendNoticeMail(services: AppServices, mail: { to: string[]; subject: string; text: string }): Promise<boolean> {
  const transport = transportOf(services);
  if (!transport || mail.to.length === 0) return false;
  try {
    await transport.sendMail({ from: services.config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
    return true;
  } catch (err) {
    services.logger.warn('could not send the notice e-mail', { subject: mail.subject, error: err });
    return false;
  }
}
