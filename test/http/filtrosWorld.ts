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
  /** Two clinical staff members of company A linked to user accounts: their user ids. */
  nurses(): Promise<[string, string]>;
  receive(token: string, overrides?: Json): Promise<Answer>;
  /** A dialyzer received and assigned to the patient (baseline TCV 100 mL): its id. */
  assigned(token: string, patientId: string, overrides?: Json): Promise<string>;
  post(token: string, id: string, action: string, json: unknown): Promise<Answer>;
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
    async nurses() {
      const position = (await w.createPosition(w.a)).body.id as string;
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const userId = await w.newMember();
        await w.hire(w.a, position, { userId });
        ids.push(userId);
      }
      return [ids[0]!, ids[1]!];
    },
    receive,
    async assigned(token, patientId, overrides = {}) {
      const id = (await receive(token, overrides)).body.id as string;
      expectStatus(await post(token, id, 'asignacion', { patientId, baselineTcvMl: 100 }), 200);
      return id;
    },
    post,
  };
}
