// Reads a V8 .cpuprofile and sums self time by function and by module group, so a profile says where CPU goes.
import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Row {
  name: string;
  selfMs: number;
  share: number;
}

export interface ProfileSummary {
  wallMs: number;
  busyMs: number;
  functions: Row[];
  groups: Row[];
  projections: Row[];
  /** Self time charged to the nearest src/ frame on the stack (native SQLite, node_modules and builtins included). */
  owners: Row[];
  ownerFiles: Row[];
}

/** Ordered rules: the first whose test matches a frame names its group. */
const GROUPS: [string, (url: string, fn: string) => boolean][] = [
  ['idle', (_u, f) => f === '(idle)'],
  ['GC', (_u, f) => f === '(garbage collector)'],
  ['native / unattributed (program)', (_u, f) => f === '(program)' || f === '(root)'],
  ['validation (ajv + src/http/validation)', (u) => /node_modules\/ajv|http\/validation|textRules/.test(u)],
  [
    'auth / jwt',
    (u) => /node_modules\/(jose|jsonwebtoken)|src\/auth\/|http\/(authenticate|routeAuth|keptPrincipals)|permissions\//.test(u),
  ],
  ['access audit', (u) => /accessAudit|routeAudit/.test(u)],
  ['observability (metrics, access log, trace)', (u) => /observability\/|observeRequests|prom-client|pino/.test(u)],
  ['projections', (u) => /src\/projections\//.test(u)],
  ['process managers / webhooks', (u) => /src\/processes\//.test(u)],
  ['read store', (u) => /src\/stores\/(embedded|sqliteRead|mongo|readStore|readCursor|sharedDocuments|projectionFields)/.test(u)],
  [
    'event store append / group commit / fsync',
    (u) => /src\/stores\/(sqlite\/|chain\/|eventStore|eventMatching|streamNames|leases)/.test(u),
  ],
  ['better-sqlite3 (native SQLite: see the by-caller table)', (u) => /node_modules\/better-sqlite3/.test(u)],
  ['commands / decider', (u) => /src\/commands\/|src\/facts\//.test(u)],
  ['src/http pipeline + routes', (u) => /src\/http\//.test(u)],
  [
    'koa + middleware (node_modules)',
    (u) =>
      /node_modules\/(koa|@koa|co-body|raw-body|statuses|http-errors|on-finished|accepts|negotiator|type-is|mime|content-type|cookies|vary|fresh|depd|delegates|only)/.test(
        u,
      ),
  ],
  ['other src', (u) => /\/src\//.test(u)],
  ['other node_modules', (u) => /node_modules\//.test(u)],
  ['node internals (http, net, streams, timers)', (u) => u.startsWith('node:') || u === ''],
];

function groupOf(url: string, fn: string): string {
  for (const [name, test] of GROUPS) if (test(url, fn)) return name;
  return 'elsewhere';
}

function shortUrl(url: string): string {
  const i = url.search(/\/(dist\/src|src|node_modules)\//);
  return i >= 0 ? url.slice(i + 1) : url.replace(/^file:\/\//, '');
}

function top(map: Map<string, number>, busyUs: number, n: number): Row[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, selfMs: Math.round(us / 100) / 10, share: Math.round((1000 * us) / busyUs) / 10 }));
}

/** Self µs per node id, only samples whose timestamp (µs, CLOCK_MONOTONIC like process.hrtime) lies in the window. */
function selfTimes(profile: CpuProfile, window?: { fromUs: number; toUs: number }): Map<number, number> {
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (window && (t < window.fromUs || t > window.toUs)) continue;
    const id = profile.samples[i]!;
    // timeDeltas[i] is the gap before sample i; the sample's own duration is the next delta.
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i + 1] ?? 0));
  }
  return selfUs;
}

export function readCpuProfile(file: string): CpuProfile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
}

export function summariseCpuProfile(profile: CpuProfile, window?: { fromUs: number; toUs: number }, topN = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = selfTimes(profile, window);
  const byFunction = new Map<string, number>();
  const byGroup = new Map<string, number>();
  const byProjectionFile = new Map<string, number>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ownerOf = (id: number): CallFrame | null => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (/\/src\//.test(frame.url)) return frame;
    }
    return null;
  };
  const byOwner = new Map<string, number>();
  const byOwnerFile = new Map<string, number>();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    totalUs += us;
    const fn = functionName || '(anonymous)';
    if (fn === '(idle)') idleUs += us;
    const key = url ? `${fn} ${shortUrl(url)}:${lineNumber + 1}` : fn;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const group = groupOf(url, fn);
    byGroup.set(group, (byGroup.get(group) ?? 0) + us);
    const owner = fn === '(garbage collector)' || fn === '(idle)' || fn === '(program)' ? null : ownerOf(id);
    const ownerGroup = owner ? groupOf(owner.url, owner.functionName) : group;
    byOwner.set(ownerGroup, (byOwner.get(ownerGroup) ?? 0) + us);
    const ownerFile = owner ? shortUrl(owner.url) : group;
    byOwnerFile.set(ownerFile, (byOwnerFile.get(ownerFile) ?? 0) + us);
    if (group === 'projections') byProjectionFile.set(shortUrl(url), (byProjectionFile.get(shortUrl(url)) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  byFunction.delete('(idle)');
  byGroup.delete('idle');
  byOwner.delete('idle');
  byOwnerFile.delete('idle');
  return {
    wallMs: Math.round(totalUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    functions: top(byFunction, busyUs, topN),
    groups: top(byGroup, busyUs, 100),
    projections: top(byProjectionFile, busyUs, 30),
    owners: top(byOwner, busyUs, 100),
    ownerFiles: top(byOwnerFile, busyUs, 25),
  };
}

/** Inclusive time of the subtrees whose frame matches, not counting nested matches twice. */
export function inclusiveMs(
  profile: CpuProfile,
  match: (fn: string, url: string) => boolean,
  window?: { fromUs: number; toUs: number },
): number {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = selfTimes(profile, window);
  const walk = (id: number, inside: boolean): number => {
    const node = byId.get(id)!;
    const here = inside || match(node.callFrame.functionName, node.callFrame.url);
    let us = here ? (selfUs.get(id) ?? 0) : 0;
    for (const c of node.children ?? []) us += walk(c, here);
    return us;
  };
  return Math.round(walk(profile.nodes[0]!.id, false) / 1000);
}
