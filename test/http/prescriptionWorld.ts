// The Dialisis prescriptions suite's world: the staff world (companies A and B) plus patients, a physician of company A
// with a staff record and a valid licence (may sign), one without a staff record, a nurse, and a prescription body.
import { grantMembership, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import { registration } from './pacientesWorld.js';
import { expectStatus, startStaffWorld, unique, type Json, type StaffWorld } from './staffWorld.js';

export { expectStatus, pointers, type Answer, type Json } from './staffWorld.js';

export interface PrescriptionWorld extends StaffWorld {
  patient(token: string, overrides?: Json): Promise<string>;
  /** A member of company A holding a built-in role: user id and token. */
  withRole(role: string): Promise<{ userId: string; token: string }>;
  /** A physician of company A linked to a staff record with a valid licence: user id and token. */
  physician(): Promise<{ userId: string; token: string }>;
}

export const prescriptionBody = (overrides: Json = {}): Json => ({
  modality: 'HDF-post',
  durationMinutes: 240,
  frequencyPerWeek: 3,
  dryWeightKg: 62.5,
  ufGoalRule: 'pre-weight minus dry weight plus fluids given',
  qbMlMin: 350,
  qdMlMin: 500,
  dialyzer: { model: 'FX80', surfaceM2: 1.8, flux: 'high', membrane: 'Helixone' },
  dialysate: {
    acidConcentrateCode: 'AC-2K-1.25Ca',
    sodiumMmolL: 138,
    potassiumMmolL: 2,
    calciumMmolL: 1.25,
    magnesiumMmolL: 0.5,
    bicarbonateMmolL: 32,
    glucoseMgDl: 100,
    temperatureC: 36,
  },
  anticoagulation: { kind: 'ufh', bolusUnits: 2000, hourlyUnits: 1000, stopMinutesBeforeEnd: 60 },
  needles: { arterialGauge: 15, venousGauge: 15, cannulationTechnique: 'rope-ladder' },
  medications: [{ drug: 'Epoetin alfa', dose: 4000, unit: 'IU', route: 'iv-venous-line', frequency: 'every session' }],
  validFrom: '2025-03-01',
  ...overrides,
});

export async function startPrescriptionWorld(): Promise<PrescriptionWorld> {
  const w = await startStaffWorld();
  const { server } = w;
  const withRole: PrescriptionWorld['withRole'] = async (role) => {
    const caller = { actor: 'system' };
    const account = { email: `${unique(role)}@uno.example`, password: 'a long enough passphrase 3', totpSecret: newTotpSecret() };
    const user = await registerUser(server.services, { ...account, name: role }, caller);
    const granted = await grantMembership(
      server.services,
      { companyId: server.admin.companyId, userId: user.userId, roles: [role] },
      caller,
    );
    if (granted.position !== null) await server.services.projections.waitFor(granted.position);
    const token = await server.signInAndSelect({ ...account, userId: user.userId, companyId: server.admin.companyId });
    return { userId: user.userId, token };
  };
  try {
    const nephrologist = { name: 'Nephrologist', licensingBody: 'CMP', suggestedRoles: ['physician'], physician: true };
    const position = (await w.createPosition(w.a, nephrologist)).body.id as string;
    return {
      ...w,
      patient: async (token, overrides = {}) =>
        expectStatus(await w.call(token, 'POST', '/pacientes', { json: registration(overrides) }), 201).body.id as string,
      withRole,
      async physician() {
        const doctor = await withRole('physician');
        const hired = await w.hire(w.a, position, {
          userId: doctor.userId,
          profession: 'Médico nefrólogo',
          licence: { body: 'CMP', number: unique('CMP '), expiresOn: '2099-12-31' },
        });
        // The signing check reads the staff read model: wait for the hire to reach it.
        const token = hired.headers.get('x-event-position') ?? '';
        expectStatus(await w.call(w.a, 'GET', `/colaboradores/${hired.body.id}?minPosition=${encodeURIComponent(token)}`), 200);
        return doctor;
      },
    };
  } catch (err) {
    await w.close();
    throw err;
  }
}
