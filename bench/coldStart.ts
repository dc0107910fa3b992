// Cold start of the real service (src/main.ts as its own process) over the benchmark event log:
// time from spawn until /ready answers 200 (stores open, projections caught up), and its memory.
import fs from 'node:fs';
import path from 'node:path';
import { memoryOf, startService } from './processes.js';

export interface ColdStartFigures {
  events: number;
  readySeconds: number;
  rssMiB: number;
  peakRssMiB: number;
}

export async function benchColdStart(
  datasetDir: string,
  scratch: string,
  events: number,
  port: number,
  env: Record<string, string>,
): Promise<ColdStartFigures> {
  // Work on a copy: the service writes its bootstrap events into the log it is given.
  const dataDir = path.join(scratch, 'coldstart');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.copyFileSync(path.join(datasetDir, 'events.sqlite'), path.join(dataDir, 'events.sqlite'));
  const service = await startService({ ...env, DATA_DIR: dataDir }, port);
  const memory = memoryOf(service.child.pid!);
  await service.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { events, readySeconds: Number((service.readyMs / 1000).toFixed(2)), ...memory };
}
