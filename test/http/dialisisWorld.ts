// The Dialisis HTTP suites' world: companies A and B (staffWorld) with a location each (monitoresWorld), a physician and
// a nurse of company A (staff records linked to members with those built-in roles), patients, and helpers to define a
// shift, create a standing plan and generate a day. Dates are counted from the server clock.
import { grantMembership, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import type { TestServerOptions } from '../support/harness.js';
import { expectStatus, startMonitoresWorld, unique, type Answer, type Json, type MonitoresWorld } from './monitoresWorld.js';

export { expectStatus, pointers, unique, type Answer, type Json } from './monitoresWorld.js';

export interface Clinician {
  staffId: string;
  userId: string;
  token: string;
  account: { email: string; password: string; totpSecret: string; userId: string; companyId: string };
}

export interface DialisisWorld extends MonitoresWorld {
  physician: Clinician;
  nurse: Clinician;
  /** The calendar date (UTC) `days` from the server's today. */
  dateIn(days: number): string;
  /** The first date from tomorrow on that falls on this ISO weekday (1 = Monday). */
  nextWeekday(isoWeekday: number): string;
  /** A shift of company A's location (or B's with token b): its id. */
  createShift(token: string, overrides?: Json): Promise<string>;
  /** A standing plan of a patient in a shift on these weekdays, effective from today: its id. */
  createPlan(token: string, patientId: string, shiftId: string, weekdays: number[], overrides?: Json): Promise<string>;
  generate(token: string, date: string, body?: Json): Promise<Answer>;
  extraSession(token: string, body: Json): Promise<Answer>;
  /** Moves the server clock on; everyone signs in again (access tokens live 15 minutes). */
  advance(ms: number): Promise<void>;
  /** A fresh authenticator code of a clinician, in a later 30-second step than any code used before (step-up). */
  stepUpCode(who: Clinician): Promise<string>;
}

const DAY_MS = 86_400_000;

export const shiftBody = (locationId: string, overrides: Json = {}): Json => ({
  name: unique('Turno mañana '),
  locationId,
  dialysisStart: '06:00',
  dialysisEnd: '10:00',
  cleaningMinutes: 30,
  capacity: 4,
  reservedCapacity: 1,
  ...overrides,
});

/** A member of company A with a built-in role, linked to a staff record under a position (by default one that fits the role). */
export async function clinician(world: MonitoresWorld, role: 'physician' | 'nurse', positionOverrides?: Json): Promise<Clinician> {
  const { services, admin } = world.server;
  const caller = { actor: 'system' };
  const email = `${unique(`${role}-`)}@uno.example`;
  const password = 'a long enough passphrase 9';
  const totpSecret = newTotpSecret();
  const user = await registerUser(services, { email, name: role, password, totpSecret }, caller);
  const granted = await grantMembership(services, { companyId: admin.companyId, userId: user.userId, roles: [role] }, caller);
  if (granted.position !== null) await services.projections.waitFor(granted.position);
  const account = { email, password, totpSecret, userId: user.userId, companyId: admin.companyId };
  const token = await world.server.signInAndSelect(account);
  const fitting =
    role === 'physician' ? { name: 'Nephrologist', licensingBody: 'CMP', suggestedRoles: ['physician'], physician: true } : {};
  const body = positionOverrides ?? fitting;
  const position = await world.createPosition(world.a, { code: unique(role === 'physician' ? 'NEF-' : 'ENF-'), ...body });
  const staff = await world.hire(world.a, position.body.id as string);
  const staffId = staff.body.id as string;
  expectStatus(await world.call(world.a, 'POST', `/colaboradores/${staffId}/usuario`, { json: { userId: user.userId } }), 200);
  return { staffId, userId: user.userId, token, account };
}

export async function startDialisisWorld(options: TestServerOptions = {}): Promise<DialisisWorld> {
  const world = await startMonitoresWorld(options);
  try {
    const physician = await clinician(world, 'physician');
    const nurse = await clinician(world, 'nurse');
    const dateIn = (days: number) => new Date(world.server.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);
    return {
      ...world,
      physician,
      nurse,
      dateIn,
      nextWeekday(isoWeekday) {
        for (let days = 1; ; days++) {
          const date = dateIn(days);
          const day = new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
          if (day === isoWeekday) return date;
        }
      },
      createShift: async (token, overrides = {}) => {
        const locationId = (token === world.b ? world.stationB : world.stationA).locationId;
        const created = await world.call(token, 'POST', '/dialisis/turnos', { json: shiftBody(locationId, overrides) });
        return expectStatus(created, 201).body.id as string;
      },
      createPlan: async (token, patientId, shiftId, weekdays, overrides = {}) => {
        const json = { patientId, shiftId, weekdays, effectiveFrom: dateIn(0), ...overrides };
        return expectStatus(await world.call(token, 'POST', '/dialisis/planes', { json }), 201).body.id as string;
      },
      generate: (token, date, body) => world.call(token, 'POST', `/dialisis/agenda/${date}/generacion`, { json: body ?? {} }),
      extraSession: (token, body) => world.call(token, 'POST', '/dialisis/sesiones', { json: body }),
      async advance(this: DialisisWorld, ms: number) {
        world.server.clock.advance(ms);
        await this.refreshSessions();
        for (const who of [this.physician, this.nurse]) who.token = await world.server.signInAndSelect(who.account);
      },
      async stepUpCode(who) {
        world.server.clock.advance(31_000);
        return world.server.totpCode(who.account.totpSecret);
      },
    };
  } catch (err) {
    await world.close();
    throw err;
  }
}
