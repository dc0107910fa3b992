// The typed client in clients/typescript ships with the contract: its types are the generator's output for today's
// declarations (drift fails here and in CI), it compiles strict with its example, and the example runs against a live server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { signInWithClientCredentials, signInWithTotp } from '../../clients/typescript/src/index.js';
import { startTestServer, TEST_ADMIN, type TestServer } from '../support/harness.js';

const run = promisify(execFile);
const repo = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const COMMITTED = 'clients/typescript/src/schema.ts';

// Asynchronous on purpose: the server lives in this process, a synchronous child would block it.
async function node(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(process.execPath, args, { cwd: repo(''), env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`node ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, { cause: err });
  }
}

async function apiClient(server: TestServer, name: string, roles: string[]): Promise<{ clientId: string; clientSecret: string }> {
  const token = await server.signInAndSelect(server.admin);
  const created = await server.request('POST', '/integraciones', { token, body: { name, roles } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { clientId: created.body.client.id, clientSecret: created.body.clientSecret };
}

describe('TypeScript client (clients/typescript)', function () {
  this.timeout(300_000); // the generator and tsc on a 1 MB types file; a loaded machine takes its time

  it('the committed types are what the generator makes of the current contract (else: npm run client:generate)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'client-drift-'));
    try {
      const fresh = join(dir, 'schema.ts');
      await node(['--import', 'tsx', repo('scripts/generate-client.mjs'), '--out', fresh]);
      const [made, committed] = await Promise.all([readFile(fresh, 'utf8'), readFile(repo(COMMITTED), 'utf8').catch(() => '')]);
      const [a, b] = [committed.split('\n'), made.split('\n')];
      const line = a.findIndex((text, i) => text !== b[i]) + 1 || a.length + 1;
      assert.ok(
        made === committed,
        `${COMMITTED} drifted from the contract (first at line ${line}: ${JSON.stringify(b[line - 1] ?? '')}): ` +
          'run `npm run client:generate` and commit it',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the client and its example compile with tsc --strict', async () => {
    await node([repo('node_modules/typescript/bin/tsc'), '-p', repo('clients/typescript/tsconfig.json')]);
  });

  describe('against a live server', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    it('the example signs in with a TOTP secret, lists the patients and registers one', async () => {
      // The example computes its code from the real clock; the server's test clock is set a little ahead of it so the
      // code (this step or the previous one) stays valid while the example starts.
      server.clock.advance(Math.max(0, Date.now() + 20_000 - server.clock.now().getTime()));
      const { stdout } = await node(['--import', 'tsx', repo('clients/typescript/examples/registerPatient.ts')], {
        DIALYSIS_URL: server.url,
        DIALYSIS_EMAIL: TEST_ADMIN.email,
        DIALYSIS_PASSWORD: TEST_ADMIN.password,
        DIALYSIS_TOTP_SECRET: TEST_ADMIN.totpSecret,
        DIALYSIS_COMPANY_ID: server.admin.companyId,
      });
      assert.match(stdout, /Signed in to Clinica Uno/);
      assert.match(stdout, /0 patients on the first page/);
      const id = /Registered patient (\S+)/.exec(stdout)?.[1];
      assert.ok(id, stdout);
      const token = await server.signInAndSelect(server.admin);
      const read = await server.request('GET', `/pacientes/${id}`, { token });
      assert.equal(read.status, 200);
      assert.equal(read.body.givenNames, 'Ada');
    });

    it('the example signs in as an API client too', async () => {
      const { clientId, clientSecret } = await apiClient(server, 'clinic-sync', ['admin']);
      const { stdout } = await node(['--import', 'tsx', repo('clients/typescript/examples/registerPatient.ts')], {
        DIALYSIS_URL: server.url,
        DIALYSIS_CLIENT_ID: clientId,
        DIALYSIS_CLIENT_SECRET: clientSecret,
      });
      assert.match(stdout, /Signed in as an API client/);
      assert.match(stdout, /1 patients on the first page\n- Lovelace, Ada/);
      assert.match(stdout, /Registered patient \S+ \(ETag W\/"0"\)/);
    });

    it('signInWithTotp selects the only company and answers typed pages; another company sees none of them', async () => {
      server.nextTotpStep();
      const api = await signInWithTotp({
        baseUrl: server.url,
        email: TEST_ADMIN.email,
        password: TEST_ADMIN.password,
        totpSecret: TEST_ADMIN.totpSecret,
        now: server.clock.now,
      });
      assert.equal(api.company.id, server.admin.companyId);
      const page = await api.client.GET('/pacientes', { params: { query: { limit: 10 } } });
      assert.equal(page.response.status, 200);
      assert.equal(page.data?.items.length, 2);

      const other = await server.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 2');
      server.nextTotpStep();
      const { email, password, totpSecret } = other;
      const theirs = await signInWithTotp({ baseUrl: server.url, email, password, totpSecret, now: server.clock.now });
      const none = await theirs.client.GET('/pacientes', {});
      assert.equal(none.data?.items.length, 0);
      const foreign = await theirs.client.GET('/pacientes/{id}', { params: { path: { id: page.data?.items[0]?.id ?? '' } } });
      assert.equal(foreign.response.status, 404);
    });

    it('signInWithClientCredentials gets a bearer for an API client; a role without the permission gets 403', async () => {
      const token = await server.signInAndSelect(server.admin);
      const role = await server.request('POST', '/roles', {
        token,
        body: { code: 'reader', name: 'Reader', permissions: ['pacientes:read'] },
      });
      assert.equal(role.status, 201, JSON.stringify(role.body));
      const { clientId, clientSecret } = await apiClient(server, 'Lab', ['reader']);
      const api = await signInWithClientCredentials({ baseUrl: server.url, clientId, clientSecret });
      const page = await api.GET('/pacientes', {});
      assert.equal(page.response.status, 200);
      assert.equal(page.data?.items.length, 2);
      const refused = await api.POST('/pacientes', {
        body: {
          documentType: 'DNI',
          documentNumber: '40000001',
          givenNames: 'Grace',
          familyNames: 'Hopper',
          sex: 'female',
          birthDate: '1950-01-01',
          admissionDate: '2024-01-01',
        },
      });
      assert.equal(refused.response.status, 403);
      // The token lives 10 min; the client asks for a new one before it expires instead of answering 401.
      const renewing = await signInWithClientCredentials({ baseUrl: server.url, clientId, clientSecret, now: server.clock.now });
      server.clock.advance(11 * 60_000);
      assert.equal((await renewing.GET('/pacientes', {})).response.status, 200);
      server.clock.advance(11 * 60_000);
      assert.equal((await api.GET('/pacientes', {})).response.status, 401, 'a client on another clock kept its expired token');
      await assert.rejects(signInWithClientCredentials({ baseUrl: server.url, clientId, clientSecret: 'wrong' }), /401 invalid_client/);
    });
  });
});
