// The answer to a read that needs the read models while they are rebuilt from the event log (their file was found
// damaged and set aside): 503 with Retry-After, never a 500; writes go on, appended to the log.
import { ProblemError } from '../problems.js';

/** Seconds a client is told to wait while the read models are rebuilt. */
export const REBUILD_RETRY_AFTER_SECONDS = 5;

export const readModelRebuilding = (): ProblemError =>
  new ProblemError(
    503,
    'read-model-rebuilding',
    'Service Unavailable',
    'The read models are being rebuilt from the event log after their file was found damaged; no write is lost. Retry shortly',
    { 'Retry-After': String(REBUILD_RETRY_AFTER_SECONDS) },
  );
