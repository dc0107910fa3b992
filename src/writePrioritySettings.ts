// WRITE_PRIORITY_READ_BUDGET_MS (issue 29): how much of each event-loop turn reads may take while a write is in flight.
export interface WritePrioritySettings {
  /** WRITE_PRIORITY_READ_BUDGET_MS: ms of reads handled per event-loop turn while a write is in flight; 0: no priority. */
  readBudgetMs: number;
}

export const DEFAULT_READ_BUDGET_MS = 2;

export function writePrioritySettings(env: NodeJS.ProcessEnv): WritePrioritySettings {
  const value = env.WRITE_PRIORITY_READ_BUDGET_MS;
  if (value === undefined || value === '') return { readBudgetMs: DEFAULT_READ_BUDGET_MS };
  const ms = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || ms > 1000)
    throw new Error(`WRITE_PRIORITY_READ_BUDGET_MS must be a number of milliseconds from 0 to 1000 (0 = off), got ${value}`);
  return { readBudgetMs: ms };
}
