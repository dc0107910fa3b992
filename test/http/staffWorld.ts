// Shared by the CargosLaborales and Colaboradores HTTP suites: a real server (harness), company A and company B signed
// in through the real flow, users of company A with a chosen set of permissions, and request helpers.
import { startTestServer, type TestServer, type TestServerOptions } from '../support/harness.js';
import { handleCommand } from '../../src/commands/handleCommand.js';
import { companyDecider } from '../../src/commands/platform/company/decider.js';
import { grantMembership, platformContext, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';

import { expectStatus, type Answer, type Json } from './pacientesWorld.js';

export { expectStatus, pointers, type Answer, type Json } from './pacientesWorld.js';

let counter = 0;
export const unique = (prefix: string): string => `${prefix}${++counter}`;
let documentCounter = 70_000_000;
export const nextDocument = (): string => String(++documentCounter);

export const positionBody = (overrides: Json = {}): Json => ({
  code: unique('ENF-'),
  name: 'Dialysis nurse',
  clinical: true,
  licenceRequired: true,
  licensingBody: 'CEP',
  suggestedRoles: ['nurse'],
  ...overrides,
});

export const staffBody = (positionId: string, overrides: Json = {}): Json => ({
  document: { type: 'DNI', number: nextDocument() },
  givenNames: 'Rosa Elena',
  familyNames: 'Mamani Quispe',
  positionId,
  profession: 'Licenciada en enfermería',
  licence: { body: 'CEP', number: unique('CEP '), expiresOn: '2030-12-31' },
  hireDate: '2024-01-15',
  contractType: 'planilla',
  ...overrides,
});

export interface StaffWorld {
  server: TestServer;
  /** Access tokens of company A's and company B's administrators. */
  a: string;
  b: string;
  call(token: string, method: string, path: string, options?: { json?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  createPosition(token: string, overrides?: Json): Promise<Answer>;
  hire(token: string, positionId: string, overrides?: Json): Promise<Answer>;
  /** A member of company A whose only role grants `permissions`: its user id and a token. */
  memberWith(permissions: string[]): Promise<{ userId: string; token: string }>;
  /** A member of company A who never signs in here (a user to link staff to). */
  newMember(): Promise<string>;
  /** Signs both administrators in again (after the clock moved past their sessions' limits): updates `a` and `b`. */
  refreshSessions(): Promise<void>;
  close(): Promise<void>;
}

export async function startStaffWorld(options: TestServerOptions = {}): Promise<StaffWorld> {
  const server = await startTestServer(options);
  const call: StaffWorld['call'] = async (token, method, path, options = {}) => {
    const answer = await server.request(method, path, { token, body: options.json, headers: options.headers });
    return { status: answer.status, headers: new Headers(answer.headers), body: (answer.body ?? {}) as Json };
  };
  const member = async (permissions: string[]) => {
    const { services, admin } = server;
    const code = unique('role-');
    const caller = { actor: 'system' };
    await handleCommand(
      services.events,
      companyDecider,
      { type: 'DefineRole', aggregateId: admin.companyId, data: { code, name: code, permissions } },
      platformContext(services, caller),
    );
    const email = `${code}@uno.example`;
    const password = 'a long enough passphrase 3';
    const totpSecret = newTotpSecret();
    const user = await registerUser(services, { email, name: code, password, totpSecret }, caller);
    const granted = await grantMembership(services, { companyId: admin.companyId, userId: user.userId, roles: [code] }, caller);
    if (granted.position !== null) await services.projections.waitFor(granted.position);
    return { email, password, totpSecret, userId: user.userId, companyId: admin.companyId };
  };
  const memberWith: StaffWorld['memberWith'] = async (permissions) => {
    const account = await member(permissions);
    return { userId: account.userId, token: await server.signInAndSelect(account) };
  };
  try {
    const a = await server.signInAndSelect(server.admin);
    const companyB = await server.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 2');
    const b = await server.signInAndSelect(companyB);
    return {
      server,
      a,
      b,
      call,
      createPosition: async (token, overrides = {}) =>
        expectStatus(await call(token, 'POST', '/cargos-laborales', { json: positionBody(overrides) }), 201),
      hire: async (token, positionId, overrides = {}) =>
        expectStatus(await call(token, 'POST', '/colaboradores', { json: staffBody(positionId, overrides) }), 201),
      memberWith,
      newMember: async () => (await member(['colaboradores:read'])).userId,
      async refreshSessions(this: StaffWorld) {
        this.a = await server.signInAndSelect(server.admin);
        this.b = await server.signInAndSelect(companyB);
      },
      close: () => server.close(),
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}
