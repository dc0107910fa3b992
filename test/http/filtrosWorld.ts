// The FiltrosDialisis HTTP suite's world: the staff world (companies A and B, positions, staff) plus patients, members
// with a built-in role, dialyzer helpers and the text of a label PDF.
import { grantMembership, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import { registration } from './pacientesWorld.js';
import { expectStatus, startStaffWorld, unique, type Answer, type Json, type StaffWorld } from './staffWorld.js';

export { expectStatus, pointers, type Answer, type Json } from './staffWorld.js';

export interface FiltrosWorld extends StaffWorld {
  patient(token: string, overrides?: Json): Promise<string>;
  /** A member of company A holding a built-in role: a token. */
  withRole(role: string): Promise<string>;
  /** Two clinical staff members of company A linked to user accounts (with their authenticators). */
  nurses(): Promise<[Confirmer, Confirmer]>;
  /** Each person's fresh authenticator code (the clock moves to a new TOTP step): the identityConfirmations of a check. */
  confirmations(people: Confirmer[]): Promise<{ userId: string; code: string }[]>;
  /** Two people confirm the patient before the first use of a reusable dialyzer (issue 21 item 14). */
  identified(token: string, id: string, patientId: string): Promise<void>;
  receive(token: string, overrides?: Json): Promise<Answer>;
  /** A dialyzer received and assigned to the patient (baseline TCV 100 mL): its id. */
  assigned(token: string, patientId: string, overrides?: Json): Promise<string>;
  post(token: string, id: string, action: string, json: unknown): Promise<Answer>;
}

/** A member of company A with a staff record that may sign clinical records, and their authenticator secret. */
export interface Confirmer {
  userId: string;
  totpSecret: string;
}

export const dialyzerBody = (overrides: Json = {}): Json => ({
  model: 'FX80',
  surfaceM2: 1.8,
  flux: 'high',
  membrane: 'Helixone',
  lot: 'L-2025-01',
  serial: unique('SN-'),
  reusable: true,
  ...overrides,
});

/** The text a PDF shows: pdfkit writes each run as a hex string inside a TJ array. */
export function pdfText(pdf: string): string {
  const runs = [...pdf.matchAll(/\[([^\]]*)\]\s*TJ/g)].map((m) =>
    [...m[1]!.matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''),
  );
  return runs.join('\n');
}

export async function startFiltrosWorld(): Promise<FiltrosWorld> {
  const w = await startStaffWorld();
  const { server } = w;
  const patient: FiltrosWorld['patient'] = async (token, overrides = {}) =>
    expectStatus(await w.call(token, 'POST', '/pacientes', { json: registration(overrides) }), 201).body.id as string;
  const receive: FiltrosWorld['receive'] = async (token, overrides = {}) =>
    expectStatus(await w.call(token, 'POST', '/filtros-dialisis', { json: dialyzerBody(overrides) }), 201);
  const post: FiltrosWorld['post'] = (token, id, action, json) => w.call(token, 'POST', `/filtros-dialisis/${id}/${action}`, { json });
  async function nurses(): Promise<[Confirmer, Confirmer]> {
    const position = (await w.createPosition(w.a)).body.id as string;
    const people: Confirmer[] = [];
    for (let i = 0; i < 2; i++) {
      const caller = { actor: 'system' };
      const totpSecret = newTotpSecret();
      const account = { email: `${unique('confirmer-')}@uno.example`, name: 'Nurse', password: 'a long enough passphrase 3', totpSecret };
      const user = await registerUser(server.services, account, caller);
      const granted = await grantMembership(
        server.services,
        { companyId: server.admin.companyId, userId: user.userId, roles: ['nurse'] },
        caller,
      );
      if (granted.position !== null) await server.services.projections.waitFor(granted.position);
      await w.hire(w.a, position, { userId: user.userId });
      people.push({ userId: user.userId, totpSecret });
    }
    return [people[0]!, people[1]!];
  }
  const confirmations: FiltrosWorld['confirmations'] = async (people) => {
    server.nextTotpStep();
    return Promise.all(people.map(async (p) => ({ userId: p.userId, code: await server.totpCode(p.totpSecret) })));
  };
  let confirmers: [Confirmer, Confirmer] | null = null;
  const identified: FiltrosWorld['identified'] = async (token, id, patientId) => {
    confirmers ??= await nurses();
    const identityConfirmations = await confirmations(confirmers);
    expectStatus(await post(token, id, 'controles-previos', { patientId, identityConfirmations }), 200);
  };
  return {
    ...w,
    patient,
    async withRole(role) {
      const caller = { actor: 'system' };
      const email = `${unique(role)}@uno.example`;
      const account = { email, password: 'a long enough passphrase 3', totpSecret: newTotpSecret() };
      const user = await registerUser(server.services, { ...account, name: role }, caller);
      const granted = await grantMembership(
        server.services,
        { companyId: server.admin.companyId, userId: user.userId, roles: [role] },
        caller,
      );
      if (granted.position !== null) await server.services.projections.waitFor(granted.position);
      return server.signInAndSelect({ ...account, userId: user.userId, companyId: server.admin.companyId });
    },
    nurses,
    confirmations,
    identified,
    receive,
    async assigned(token, patientId, overrides = {}) {
      const id = (await receive(token, overrides)).body.id as string;
      expectStatus(await post(token, id, 'asignacion', { patientId, baselineTcvMl: 100 }), 200);
      if (overrides.reusable !== false) await identified(token, id, patientId);
      return id;
    },
    post,
  };
}
