// ETag / If-Match and the headers of write answers (RFC 9110): a record's ETag is its stream revision.
import { ProblemError } from '../problems.js';
import type { JsonSchema } from './routeTypes.js';

export const etagOf = (revision: number): string => `W/"${revision}"`;

/** Declaration of the If-Match request header, for a route's `requestHeaders`. */
export const ifMatchHeader = (required: boolean): { required: boolean; description: string; schema: JsonSchema } => ({
  required,
  description: required
    ? 'ETag of the record as last read (W/"<revision>"); required: without it the update answers 428'
    : 'ETag of the record as last read (W/"<revision>"); 412 when the record changed since',
  schema: { type: 'string', minLength: 1, maxLength: 64 },
});

export const preconditionFailed = (detail = 'If-Match does not match the current revision of the record'): ProblemError =>
  new ProblemError(412, 'precondition-failed', 'Precondition Failed', detail);

export const preconditionRequired = (): ProblemError =>
  new ProblemError(428, 'precondition-required', 'Precondition Required', 'Send If-Match with the ETag of the record as you last read it');

/**
 * The revision an If-Match names: null when absent or '*'. Throws 428 when `required` and absent or '*' (a required
 * precondition must name the revision the client read), and 412 for a value that cannot match any ETag of ours.
 */
export function ifMatchRevision(value: string | undefined, options: { required: true }): number;
export function ifMatchRevision(value: string | undefined, options?: { required?: boolean }): number | null;
export function ifMatchRevision(value: string | undefined, options: { required?: boolean } = {}): number | null {
  if (value === undefined || value.trim() === '' || value.trim() === '*') {
    if (options.required) throw preconditionRequired();
    return null;
  }
  const m = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(value);
  if (!m) throw preconditionFailed('If-Match must be an ETag of this API: W/"<revision>"');
  return Number(m[1]);
}

/** Headers of a write answer: ETag of the new revision, the global position to read your write, and Location. */
export function writeHeaders(w: { revision?: number | null; position?: bigint | null; location?: string }): Record<string, string> {
  const headers: Record<string, string> = {};
  if (w.revision !== undefined && w.revision !== null && w.revision >= 0) headers.ETag = etagOf(w.revision);
  if (w.position !== undefined && w.position !== null) headers['X-Event-Position'] = w.position.toString();
  if (w.location) headers.Location = w.location;
  return headers;
}
