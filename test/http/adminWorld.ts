// Steps of the administration scenarios, over HTTP: a platform admin registers companies, people activate their
// invitations and enroll an authenticator, programs get client-credentials tokens.
import assert from 'node:assert/strict';
import type { ApiJson, TestServer } from '../support/harness.js';

export const LIMA_PROFILE = {
  legalName: 'Centro Renal del Norte S.A.C.',
  tradeName: 'Renal Norte',
  country: 'PE',
  // SUNAT's own RUC: a valid check digit.
  taxId: { type: 'RUC', number: '20131312955' },
  address: { line1: 'Av. Arequipa 1234', city: 'Lima', region: 'Lima' },
  timeZone: 'America/Lima',
  currency: 'PEN',
};

export const STRONG_PASSWORD = 'riñón azul bajo la lluvia de marzo';

export interface Person {
  email: string;
  password: string;
  totpSecret: string;
  userId: string;
}

/** POST /auth/activate, then the first sign-in with its enrollment: the person's authenticator secret and a token. */
export async function activateAndEnroll(
  server: TestServer,
  email: string,
  activationToken: string,
  password = STRONG_PASSWORD,
): Promise<Person & { accessToken: string }> {
  const activated = await server.request('POST', '/auth/activate', { body: { token: activationToken, password } });
  assert.equal(activated.status, 200, JSON.stringify(activated.body));
  const login = await server.request('POST', '/auth/login', { body: { email, password } });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const totpSecret = login.body.enrollment?.secret as string;
  assert.ok(totpSecret, 'the first sign-in returns the enrollment');
  server.nextTotpStep();
  const verified = await server.request('POST', '/auth/verify-2fa', {
    body: { challenge: login.body.challenge, code: await server.totpCode(totpSecret) },
  });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return { email, password, totpSecret, userId: activated.body.userId as string, accessToken: verified.body.accessToken as string };
}

/** Signs in and selects the company; answers the token. */
export async function signInto(server: TestServer, person: Person, companyId: string): Promise<string> {
  const { accessToken } = await server.signIn(person.email, person.password, person.totpSecret);
  await server.selectTenant(accessToken, companyId);
  return accessToken;
}

export async function registerCompany(server: TestServer, platformToken: string, body: ApiJson): Promise<ApiJson> {
  const answer = await server.request('POST', '/empresas', { token: platformToken, body });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body;
}

/** POST /auth/token, form-encoded as RFC 6749 says. */
export async function clientToken(server: TestServer, clientId: string, clientSecret: string) {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString();
  return server.request('POST', '/auth/token', { body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}
