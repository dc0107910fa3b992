// The one-time message of the first start: generated credentials and a QR code for an authenticator app.
import type { BootstrapCredentials } from './commands/platform/bootstrapWrites.js';
import { qrForTerminal } from './auth/totp.js';

export async function bootstrapBanner(c: BootstrapCredentials, url: string | null): Promise<string> {
  const shown = (name: string, value: string) => (c.generated.includes(name) ? value : '(as configured)');
  const lines = [
    '',
    '================ First start: platform administrator created ================',
    `  Company:     ${c.companyName}`,
    `  E-mail:      ${c.email}`,
    `  Password:    ${shown('password', c.password)}`,
    `  TOTP secret: ${shown('totpSecret', c.totpSecret)}`,
  ];
  if (c.generated.includes('totpSecret')) {
    lines.push(`  otpauth URI: ${c.otpauthUri}`, '', '  Scan with an authenticator app (Google Authenticator, Aegis, FreeOTP...):', '');
    lines.push(await qrForTerminal(c.otpauthUri));
  }
  if (c.generated.length > 0) lines.push('  These generated values are shown ONCE: store them now.');
  if (url) lines.push(`  Sign in: POST ${url}/auth/login, then POST ${url}/auth/verify-2fa`);
  lines.push('==============================================================================', '');
  return lines.join('\n');
}
