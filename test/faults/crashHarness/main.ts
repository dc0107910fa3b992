// npm run crash -- [--rounds N] [--until-interrupted N] [--seed S] [--window MS] [--kill-share MIN,MAX]: the crash harness from the
// command line; prints each round and a summary, and exits 1 on any invariant violation.
import { runCrashHarness } from './harness.js';

const args = process.argv.slice(2);
const option = (name: string): number | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : undefined;
};
const shareArg = args.indexOf('--kill-share');
const share = shareArg >= 0 ? (args[shareArg + 1]!.split(',').map(Number) as [number, number]) : null;
const log = (line: string) => process.stdout.write(`${line}\n`);

const report = await runCrashHarness({
  rounds: option('rounds') ?? 15,
  ...(option('until-interrupted') !== undefined ? { untilInterrupted: option('until-interrupted') } : {}),
  ...(option('seed') !== undefined ? { seed: option('seed') } : {}),
  ...(option('window') !== undefined ? { windowMs: option('window') } : {}),
  ...(share ? { killAfterAnsweredShare: share } : {}),
  log,
});
log(
  `\ncrash harness summary: ${report.rounds.length} rounds, ${report.operationsSent} operations sent, ${report.acknowledged} acknowledged, ` +
    `${report.interrupted} interrupted, ${report.violations} invariant violations (seed ${report.seed})`,
);
log(`interrupted by kind: ${JSON.stringify(report.interruptedByKind)}`);
log(
  `half-done operations repaired: claims released by the reconciliation ${JSON.stringify(report.releasedByReconciliation)}, ` +
    `orphaned documents taken over ${report.documentsTakenOver}, stale running-session claims taken over ${report.runningClaimsTakenOver}`,
);
process.exitCode = report.violations > 0 ? 1 : 0;
