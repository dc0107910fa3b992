// Shared by the Empresas HTTP suites: a real server, company A's admin, company B's admin, and a user of company A
// whose role reads the company but may not administer it (no empresas:admin).
import { startTestServer, type TestServer } from '../support/harness.js';
import { handleCommand } from '../../src/commands/handleCommand.js';
import { companyDecider } from '../../src/commands/platform/company/decider.js';
import { grantMembership, platformContext, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import { expectStatus, type Answer } from './pacientesWorld.js';

export { expectStatus, pointers, type Answer, type Json } from './pacientesWorld.js';

export interface EmpresasWorld {
  server: TestServer;
  /** Access tokens: company A's admin, company B's admin, company A's reader (empresas:read only). */
  a: string;
  b: string;
  reader: string;
  actorA: string;
  call(token: string, method: string, path: string, options?: { json?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  /** Opens a location in the token's company; 201 expected. */
  openLocation(token: string, json?: unknown): Promise<Answer>;
  close(): Promise<void>;
}

async function readerOf(server: TestServer): Promise<string> {
  const { services, admin } = server;
  const caller = { actor: 'system' };
  await handleCommand(
    services.events,
    companyDecider,
    {
      type: 'DefineRole',
      aggregateId: admin.companyId,
      data: { code: 'company-reader', name: 'Company reader', permissions: ['empresas:read'] },
    },
    platformContext(services, caller),
  );
  const totpSecret = newTotpSecret();
  const password = 'quiet ledger of some length';
  const user = await registerUser(services, { email: 'reader@clinic.example', name: 'Reader', password, totpSecret }, caller);
  const granted = await grantMembership(services, { companyId: admin.companyId, userId: user.userId, roles: ['company-reader'] }, caller);
  if (granted.position !== null) await services.projections.waitFor(granted.position);
  return server.signInAndSelect({ email: 'reader@clinic.example', password, totpSecret, userId: user.userId, companyId: admin.companyId });
}

export async function startEmpresasWorld(): Promise<EmpresasWorld> {
  const server = await startTestServer();
  const call: EmpresasWorld['call'] = async (token, method, path, options = {}) => {
    const answer = await server.request(method, path, { token, body: options.json, headers: options.headers });
    return { status: answer.status, headers: new Headers(answer.headers), body: (answer.body ?? {}) as Answer['body'] };
  };
  try {
    const a = await server.signInAndSelect(server.admin);
    const companyB = await server.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 2');
    const b = await server.signInAndSelect(companyB);
    const reader = await readerOf(server);
    return {
      server,
      a,
      b,
      reader,
      actorA: server.admin.userId,
      call,
      openLocation: async (token, json = { name: 'Sede Miraflores', registryCode: '00012345' }) =>
        expectStatus(await call(token, 'POST', '/empresas/actual/sedes', { json }), 201),
      close: () => server.close(),
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}
