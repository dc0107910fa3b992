// Preloaded into the crash harness's service (node --import): its clock runs CRASH_CLOCK_OFFSET_MS ahead, so a restart
// can stand for the time a grace period takes (orphaned claims, documents, seats) without the test waiting for it.
const offset = Number(process.env.CRASH_CLOCK_OFFSET_MS ?? 0);

if (offset !== 0) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}
