// The day board alone (50 sessions of 120 readings each), for comparing builds of the service in one run, alternating:
// node_modules/.bin/node --import tsx bench/dialisisBoard.ts [--entries dist-base/src/main.js,dist/src/main.js]
// [--reps 2] [--seconds 10] [--cpu-prof DIR]. Each entry is a compiled service (npm run build writes dist/).
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runLoad } from './load.js';
import { signInAndSelect } from './signIn.js';
import { patientBody } from './http.js';
import { seedDialisisDay, topUpReadings } from './dialisisDay.js';
import { SERVICE_NODE_FLAGS, startPeer } from './processes.js';
import { BENCH_CREDS, BENCH_SERVICE_ENV } from './benchAdmin.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const entries = option('entries', 'dist/src/main.js').split(',');
const reps = Number(option('reps', '1'));
const seconds = Number(option('seconds', '10'));
const profileDir = option('cpu-prof', '');
const creds = BENCH_CREDS;

function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function start(entry: string, dataDir: string, port: number): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...prof, path.join(root, entry)], {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...BENCH_SERVICE_ENV,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let until = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 50))) {
    if (
      await fetch(`${url}/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > until) throw new Error(`${entry} never became ready`);
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, pid: child.pid!, stop };
}

async function seed(base: string): Promise<string> {
  const token = await signInAndSelect(base, creds.email, creds.password, creds.totpSecret);
  const post = async (p: string, body: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${base}${p}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    if (r.status !== 201) throw new Error(`POST ${p} answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  for (let i = 0; i < 50; i++) await post('/pacientes', patientBody(i, '5'));
  const sede = await post('/empresas/actual/sedes', { name: 'Sede benchmark' });
  const sedePath = `/empresas/actual/sedes/${String(sede.id)}`;
  const roomId = (await post(`${sedePath}/salas`, { name: 'Sala 1' })).createdId as string;
  const stationId = (await post(`${sedePath}/puestos`, { code: 'P-01', roomId })).createdId as string;
  const { today } = await seedDialisisDay(base, token, { locationId: sede.id as string, stationId }, 50);
  await topUpReadings(base, token, today, 120);
  return `${base}/dialisis/agenda?date=${today}|${token}`;
}

/** The list floor (bench/peers/listFloor.ts) answering this board's page from memory, stringified per request. */
async function floorOf(page: unknown): Promise<Record<string, unknown>> {
  const pageFile = path.join(root, 'bench/tmp', 'board-page.json');
  fs.writeFileSync(pageFile, JSON.stringify(page));
  const floor = await startPeer('listFloor', 3960, { PAGE_FILE: pageFile });
  try {
    return { ...(await runLoad({ scenario: 'list floor (the board page from memory)', url: floor.url, durationSeconds: seconds })) };
  } finally {
    await floor.stop();
  }
}

async function main(): Promise<void> {
  const rows: Record<string, unknown>[] = [];
  // Seeded once by the first entry; each entry starts over its own copy of that data (same events, same read model).
  const seeded = path.join(root, 'bench/tmp', 'board-seed');
  fs.rmSync(seeded, { recursive: true, force: true });
  const seeder = await start(entries[0]!, seeded, 3940);
  const [url, token] = (await seed(seeder.url)).split('|') as [string, string];
  await seeder.stop();
  for (const [k, entry] of entries.entries()) {
    const dataDir = path.join(root, 'bench/tmp', `board-${k}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.cpSync(seeded, dataDir, { recursive: true });
    entries[k] = `${entry}|${dataDir}|${url.replace(seeder.url, '')}|${token}`;
  }
  for (let rep = 0; rep < reps; rep++) {
    for (const [k, spec] of entries.entries()) {
      const [entry, dataDir, pathAndQuery, token] = spec.split('|') as [string, string, string, string];
      const service = await start(entry, dataDir, 3950 + k);
      const auth = { authorization: `Bearer ${token}` };
      const first = await fetch(`${service.url}${pathAndQuery}`, { headers: auth });
      if (first.status !== 200) throw new Error(`the board answered ${first.status}: ${await first.text()}`);
      const boardPage: unknown = await first.clone().json();
      const readings = ((await first.json()) as { shifts: { sessions: { readingCount: number }[] }[] }).shifts
        .flatMap((s) => s.sessions)
        .map((s) => s.readingCount);
      const cpuBefore = cpuSecondsOf(service.pid);
      const figures = await runLoad({ scenario: entry, url: `${service.url}${pathAndQuery}`, headers: auth, durationSeconds: seconds });
      const cpu = cpuSecondsOf(service.pid) - cpuBefore;
      const requests = figures.requestsPerSecond * seconds;
      rows.push({
        ...figures,
        rep,
        sessions: readings.length,
        minReadings: Math.min(...readings),
        cpuMicrosPerRequest: Math.round((cpu * 1e6) / Math.max(1, requests)),
      });
      await service.stop();
      if (k === entries.length - 1) rows.push({ ...(await floorOf(boardPage)), rep });
    }
  }
  console.table(rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
