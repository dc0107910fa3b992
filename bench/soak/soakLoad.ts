// The soak's mixed load: workers looping over reads (lists, records, the day board, widgets) and writes (registrations,
// readings, stock movements), a session starter that keeps treatments running (each on a machine of its own), and the
// full sign-in every 31 s (one TOTP step each). Every answer is counted: 5xx and transport failures are errors, 429 apart.
import { generate } from 'otplib';
import { patientBody } from '../http.js';
import { prescriptionBody } from '../dialisis.js';
import type { SoakWorld } from './soakSeed.js';

export interface LoadCounters {
  requests: number;
  errors: number;
  throttled: number;
  unexpected4xx: number;
  signIns: number;
  sessionsStarted: number;
  sessionsEnded: number;
  byOperation: Record<string, number>;
  /** The first few failures, for the report (method, path, status or message). */
  failures: string[];
}

export interface LoadOptions {
  base: string;
  creds: { email: string; password: string; totpSecret: string };
  workers: number;
  pauseMs: number;
}

const READINGS_PER_SESSION = 200; // under the company's default limit of 300 per session
const ACTIVE_SESSIONS = 6;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SoakLoad {
  readonly counters: LoadCounters = {
    requests: 0,
    errors: 0,
    throttled: 0,
    unexpected4xx: 0,
    signIns: 0,
    sessionsStarted: 0,
    sessionsEnded: 0,
    byOperation: {},
    failures: [],
  };
  private token = '';
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private readonly active: { id: string; readings: number }[] = [];
  private patientSeq = 0;
  private machineSeq = 0;
  private readonly today = new Date().toISOString().slice(0, 10);
  /** The seeded company the load works on (set once seeding is done, before start()). */
  world: SoakWorld | null = null;

  constructor(private readonly o: LoadOptions) {}

  currentToken(): string {
    return this.token;
  }

  /** One request, counted; the parsed body when 2xx, null otherwise. */
  async request(op: string, method: string, path: string, body?: unknown, token = this.token): Promise<Record<string, unknown> | null> {
    const c = this.counters;
    c.requests++;
    c.byOperation[op] = (c.byOperation[op] ?? 0) + 1;
    try {
      const r = await fetch(`${this.o.base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await r.text();
      if (r.status < 300) return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      if (r.status === 429) c.throttled++;
      else if (r.status >= 500) c.errors++;
      else c.unexpected4xx++;
      if (r.status !== 429 && c.failures.length < 20) c.failures.push(`${method} ${path} -> ${r.status} ${text.slice(0, 200)}`);
      return null;
    } catch (err) {
      c.errors++;
      if (c.failures.length < 20) c.failures.push(`${method} ${path} -> ${(err as Error).message}`);
      return null;
    }
  }

  /** login -> verify-2fa -> tenants -> select; the new token serves the load from then on. */
  async signIn(): Promise<boolean> {
    const { email, password, totpSecret } = this.o.creds;
    const login = await this.request('sign-in', 'POST', '/auth/login', { email, password }, '');
    if (!login) return false;
    const code = await generate({ secret: totpSecret });
    const verified = await this.request('sign-in', 'POST', '/auth/verify-2fa', { challenge: login.challenge, code }, '');
    if (!verified) return false;
    const access = String(verified.accessToken);
    const tenants = await this.request('sign-in', 'GET', '/tenants', undefined, access);
    const id = (tenants?.items as { id: string }[] | undefined)?.[0]?.id;
    if (!id || !(await this.request('sign-in', 'POST', `/tenants/${id}/select`, {}, access))) return false;
    this.token = access;
    this.counters.signIns++;
    return true;
  }

  start(): void {
    this.running = true;
    for (let w = 0; w < this.o.workers; w++) this.loops.push(this.loop(() => this.mixedStep(), this.o.pauseMs));
    this.loops.push(this.loop(() => this.keepSessionsRunning(), 5_000));
    this.loops.push(this.loop(async () => void (await this.signIn()), 31_000, 31_000));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(step: () => Promise<unknown>, pauseMs: number, firstPauseMs = 0): Promise<void> {
    await this.pause(firstPauseMs);
    while (this.running) {
      await step();
      await this.pause(pauseMs);
    }
  }

  /** Sleeps in short slices so stop() does not wait out a long pause. */
  private async pause(ms: number): Promise<void> {
    for (const until = Date.now() + ms; this.running && Date.now() < until;) await sleep(Math.min(250, until - Date.now()));
  }

  private pick<T>(items: T[]): T {
    return items[Math.floor(Math.random() * items.length)]!;
  }

  private async mixedStep(): Promise<void> {
    const world = this.world!;
    const roll = Math.random() * 20;
    if (roll < 2)
      await this.request(
        'list',
        'GET',
        this.pick(['/pacientes?limit=50', '/productos?limit=50', '/colaboradores?limit=50', '/monitores?limit=50']),
      );
    else if (roll < 5) await this.request('record', 'GET', `/pacientes/${this.pick(world.patientIds)}`);
    else if (roll < 6) await this.request('day-board', 'GET', `/dialisis/agenda?date=${this.today}`);
    else if (roll < 7) await this.request('widget', 'GET', this.pick(['/widgets/today-board/datos', '/widgets/patient-census/datos']));
    else if (roll < 9) await this.register();
    else if (roll < 14) await this.reading();
    else if (roll < 17) {
      await this.request('stock-issue', 'POST', `/productos/${this.pick(world.productIds)}/salidas`, {
        warehouseId: world.warehouseId,
        quantity: 1,
        reason: 'Soak',
      });
    } else if (roll < 18) {
      await this.request('stock-receipt', 'POST', `/productos/${this.pick(world.productIds)}/ingresos`, {
        warehouseId: world.warehouseId,
        quantity: 10,
        supplier: 'B. Braun',
        documentNumber: `S-${Date.now()}`,
      });
    } else
      await this.request('session', 'GET', this.active.length ? `/dialisis/sesiones/${this.pick(this.active).id}` : '/pacientes?limit=10');
  }

  private async register(): Promise<string | null> {
    const made = await this.request('register', 'POST', '/pacientes', JSON.parse(patientBody(this.patientSeq++, '6')));
    if (!made) return null;
    this.world!.patientIds.push(String(made.id));
    return String(made.id);
  }

  private async reading(): Promise<void> {
    const open = this.active.filter((s) => s.readings < READINGS_PER_SESSION);
    if (open.length === 0) return;
    const session = this.pick(open);
    session.readings++;
    await this.request('reading', 'POST', `/dialisis/sesiones/${session.id}/lecturas`, {
      at: new Date().toISOString(),
      bloodPressure: { systolic: 130, diastolic: 78 },
      pulse: 74,
      qbMlMin: 350,
      cumulativeUfMl: 1200,
      source: 'machine',
    });
  }

  /** Ends the sessions that took their readings, and starts new ones until ACTIVE_SESSIONS run. */
  private async keepSessionsRunning(): Promise<void> {
    for (const done of this.active.filter((s) => s.readings >= READINGS_PER_SESSION)) {
      this.active.splice(this.active.indexOf(done), 1);
      if (await this.request('session-end', 'POST', `/dialisis/sesiones/${done.id}/fin`, {})) this.counters.sessionsEnded++;
    }
    if (this.active.length < ACTIVE_SESSIONS) await this.startSession();
  }

  private async startSession(): Promise<void> {
    const world = this.world!;
    const patientId = await this.register();
    if (!patientId) return;
    const ok = await this.request('session-start', 'POST', `/dialisis/pacientes/${patientId}/prescripciones`, prescriptionBody(this.today));
    if (!ok) return;
    const session = await this.request('session-start', 'POST', '/dialisis/sesiones', {
      patientId,
      date: this.today,
      shiftId: world.shiftId,
      kind: 'extra',
      reason: 'Soak',
      requestedBy: world.physicianId,
    });
    if (!session) return;
    const path = `/dialisis/sesiones/${String(session.sessionId)}`;
    const k = this.machineSeq++;
    const machine = await this.request('session-start', 'POST', '/monitores', {
      code: `SK-${k}`,
      serial: `SK-SN-${k}`,
      brand: 'Fresenius',
      model: '5008S',
      locationId: world.locationId,
      stationId: world.stationId,
      installDate: this.today,
      isolation: 'none',
    });
    if (!machine) return;
    const steps: [string, unknown][] = [
      ['llegada', {}],
      ['pre-dialisis', { scaleWeightKg: 66, bloodPressure: { systolic: 140, diastolic: 80 }, pulse: 76, temperatureC: 36.5 }],
      [
        'controles-seguridad',
        {
          conductivityMsCm: 14,
          conductivityTargetMsCm: 14,
          dialysateTemperatureC: 36.5,
          residualDisinfectantAbsent: true,
          airDetectorTested: true,
          bloodLeakDetectorArmed: true,
          alarmsTested: true,
          checkedBy: 'SOK',
        },
      ],
      ['inicio', { machineId: machine.id }],
    ];
    for (const [step, body] of steps) if (!(await this.request('session-start', 'POST', `${path}/${step}`, body))) return;
    this.active.push({ id: String(session.sessionId), readings: 0 });
    this.counters.sessionsStarted++;
  }
}
