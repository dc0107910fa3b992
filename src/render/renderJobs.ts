// The jobs a render worker knows (renderWorker.ts), named once for both threads.
export const RENDER_JOBS = {
  sessionSheet: 'session-sheet',
} as const;
