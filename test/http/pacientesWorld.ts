// Shared by the Pacientes HTTP suites: a real server (harness), company A and company B signed in through
// the real flow (TOTP from the enrolled secret), and small request helpers.
import assert from 'node:assert/strict';
import { startTestServer, type ApiJson, type TestServer, type TestServerOptions } from '../support/harness.js';

export type Json = Record<string, ApiJson>;
export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

let documentCounter = 40_000_000;
export const nextDocument = (): string => String(++documentCounter);

export const registration = (overrides: Json = {}): Json => ({
  documentType: 'DNI',
  documentNumber: nextDocument(),
  givenNames: 'María José',
  familyNames: 'Quispe Huamán',
  sex: 'female',
  birthDate: '1961-05-02',
  admissionDate: '2024-11-04',
  etiology: 'diabetic nephropathy',
  dryWeightKg: 62.5,
  ...overrides,
});

export const expectStatus = (answer: Answer, status: number, type?: string): Answer => {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  if (type) assert.equal(answer.body.type, `/problems/${type}`);
  return answer;
};

export const pointers = (answer: Answer): string[] => (answer.body.errors as { pointer: string }[]).map((e) => e.pointer).sort();

export interface PacientesWorld {
  server: TestServer;
  /** Access tokens of company A's and company B's administrators. */
  a: string;
  b: string;
  /** User id of company A's administrator (the actor of A's events). */
  actorA: string;
  call(token: string, method: string, path: string, options?: { json?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  register(token: string, overrides?: Json, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

export async function startPacientesWorld(options: TestServerOptions = {}): Promise<PacientesWorld> {
  const server = await startTestServer(options);
  const call: PacientesWorld['call'] = async (token, method, path, options = {}) => {
    const answer = await server.request(method, path, { token, body: options.json, headers: options.headers });
    return { status: answer.status, headers: new Headers(answer.headers), body: (answer.body ?? {}) as Json };
  };
  try {
    const a = await server.signInAndSelect(server.admin);
    const companyB = await server.createCompanyWithAdmin('Clinica Dos', 'admin@dos.example', 'another long passphrase 2');
    const b = await server.signInAndSelect(companyB);
    return {
      server,
      a,
      b,
      actorA: server.admin.userId,
      call,
      register: async (token, overrides = {}, headers = {}) =>
        expectStatus(await call(token, 'POST', '/pacientes', { json: registration(overrides), headers }), 201),
      close: () => server.close(),
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}
