// The prose of the OpenAPI document (info.description): limits, lifetimes and conventions, written from
// the same LIMITS object the code enforces.
import { LIMITS } from '../limits.js';
import { VALIDATION_STATUS } from './validation.js';

const minutes = (s: number) => `${s / 60} min`;
const hours = (s: number) => `${s / 3600} h`;

export function apiDescription(): string {
  const L = LIMITS;
  return `Records and administration service for dialysis clinics. Every change is an event (event-sourced CQRS):
nothing is overwritten, and every record keeps who changed it, when, from where and why.

## Sign-in and tokens
- \`POST /auth/login\` (email, password) answers a second-factor challenge (${minutes(L.challenge.ttlSeconds)}, single use,
  dies after ${L.challenge.maxCodeAttempts} wrong codes); \`POST /auth/verify-2fa\` (TOTP code) answers the tokens.
- **Access token**: JWT signed with ${L.accessToken.algorithm}; algorithm, issuer (\`iss\`) and audience (\`aud\`) are pinned on
  verification, \`exp\`, \`sub\`, \`sid\` and \`jti\` are checked; lifetime ${minutes(L.accessToken.ttlSeconds)}. Send it as \`Authorization: Bearer <token>\`.
- **Session** (server-side, named by the token's \`sid\`): expires after ${minutes(L.session.idleSeconds)} without use and
  ${hours(L.session.absoluteSeconds)} after sign-in, whatever the use.
- **Refresh** (\`POST /auth/refresh\`) rotates the refresh token: each one works once; presenting a used one again revokes the
  whole session (reuse detection).
- **Logout** (\`POST /auth/logout\`) revokes the session at once: its tokens are refused from the next request.
- **Company**: most routes work inside a company. Select one with \`POST /tenants/{id}/select\`; before that they answer
  403 \`/problems/company-not-selected\`. Another company's records answer 404. Every operation whose security accepts
  \`clientCredentials\` works inside the selected company (an API client's token is bound to its own); the others say what they need.
- **Invitations**: every invitation (\`POST /usuarios\`) is a *pending* membership that grants nothing until the person
  accepts it with its one-time token (${hours(L.activation.ttlSeconds)}; e-mailed only, when e-mail is configured): a new address at
  \`POST /auth/activate\` with a password (${L.newPassword.minChars} to ${L.newPassword.maxChars} characters, not a known common one), an
  existing account signed in at \`POST /auth/invitations/{companyId}/accept\`. The company sees only what it entered either
  way (the routes say how). At most ${L.invitations.perInviterPerHour} invitations an hour per inviting person and
  ${L.invitations.perCompanyPerHour} per company (429 with \`Retry-After\`).
- **Programs** (API clients, \`/integraciones\`): \`POST /auth/token\` with \`grant_type=client_credentials\` (RFC 6749 4.4)
  answers a ${minutes(L.apiClients.tokenTtlSeconds)} bearer token already bound to the client's company, with the permissions of its roles;
  revoking the client refuses its tokens at once. Routes for people (\`/tenants\`, \`/auth/me\`...) answer 403 to it.
- **Permissions**: \`<group>:<action>\`, granted by the company's roles (\`GET /roles\`); a change of roles counts from the
  next request. A company role never reaches a platform route (403 \`/problems/platform-admin-required\`). A suspended
  company reads but writes nothing (403 \`/problems/company-suspended\`); a module it switched off answers 403
  \`/problems/module-disabled\`.
- **Privilege**: nobody acts on someone more privileged than themselves. Rotating an API client's secret, a new activation
  token, a second-factor reset, a change of roles, a revocation (of a member or an API client) and a change or retirement of a
  role need every permission the member, client or role (and everyone holding it) holds at that moment: otherwise 403
  \`/problems/target-more-privileged\`. Nobody grants a role or permission they do not hold (403 \`/problems/grant-beyond-caller\`).

## Throttling
- Login: at most ${L.throttling.login.perIpPerMinute} attempts per minute per client IP; after ${L.throttling.login.accountFailuresBeforeDelay}
  consecutive failures of one account, growing delays (up to ${L.throttling.login.accountLongestDelaySeconds} s between attempts, and never more than
  ${L.throttling.login.accountMaxFailuresPerHour} failures an hour). Accounts are throttled, never locked.
- Second factor: ${L.throttling.verify2fa.perChallenge} codes per challenge; ${L.throttling.verify2fa.userFailuresPerWindow} failures per user per ${minutes(L.throttling.verify2fa.windowSeconds)}.
- Session sheets (PDF) render in a pool of worker threads, off the event loop: a company has at most ${L.renders.perCompany} rendering
  and ${L.renders.queuedPerCompany} waiting (429 beyond; 503 when ${L.renders.queuedTotal} wait across companies); an unchanged session is answered from a cache.
- A throttled request answers 429 with \`Retry-After\` (seconds).

## Requests
- Bodies are JSON (\`Content-Type: application/json\`, UTF-8), at most ${L.body.maxBytes / 1024} KiB (413 above; 415 for
  another content type or a compressed body: send no \`Content-Encoding\`; 400 for malformed JSON).
- Every answer, success or problem, carries \`X-Request-Id\`: the correlation id of the request (the client's own
  \`X-Request-Id\` when it sent a safe one), also the \`correlationId\` of a problem.
- W3C \`traceparent\` (and \`tracestate\`) is continued (a malformed one is ignored); every answer's \`traceparent\`
  names the service's span, and the events a request appends carry its trace id.
- JSON field names are camelCase; dates are ISO-8601; global event positions are decimal strings.
- **Lists**: \`limit\` (default ${L.pagination.defaultLimit}, max ${L.pagination.maxLimit}) and an opaque \`cursor\` (the previous page's
  \`nextCursor\`; null on the last page). Sorting is stable. A cursor is sealed by the service for one company, path and set of
  filters (only \`limit\` may change between pages): a cursor that is forged, altered or used elsewhere answers 400
  \`/problems/invalid-cursor\`.

## Concurrency (ETag / If-Match)
Reads of a record answer \`ETag: W/"<revision>"\`. Updates accept \`If-Match\` with that value: if the record changed
meanwhile the update answers 412 \`/problems/precondition-failed\` and changes nothing; where a route requires
\`If-Match\` (clinical records), omitting it answers 428. Concurrent writes without \`If-Match\` may answer 409.
A GET's \`ETag\` (strong for lists) sent back in \`If-None-Match\` answers 304 with no body while unchanged. Company
data is \`Cache-Control: private, no-cache\`; tokens \`no-store\`. Answers above 1 KiB are gzip or br per \`Accept-Encoding\`.

## Idempotency
Creating routes accept an optional \`Idempotency-Key\` header (1-${L.idempotency.keyMaxLength} visible ASCII characters).
The first successful answer is kept ${hours(L.idempotency.ttlSeconds)} and replayed for a retry with the same key
(same status, body, \`Location\` and \`ETag\`, plus \`Idempotent-Replayed: true\`); the same key with another body
answers 422 \`/problems/idempotency-key-reused\`; a retry while the first request is still running answers 409
\`/problems/idempotency-key-in-flight\`. Keys are scoped to the company, user, method and route.

## Read your writes
Write responses return the new state with its \`ETag\` and \`X-Event-Position\`, an opaque consistency token for the
last event written (sealed: it tells nothing about other companies' activity). Lists and reads accept it as
\`minPosition\` (a token this service did not issue answers 400 \`/problems/invalid-min-position\` at once): the query first waits (at most ${L.readYourWrites.maxWaitMs / 1000} s) until
its read model has applied that position, so a client never reads older data than it wrote; if the wait runs out it
answers 503 with \`Retry-After\`.

## Health and read models
\`GET /health\` answers 200 while the process serves, and 503 \`/problems/projection-failed\` once a read model (projection)
has been failing for more than ${minutes(L.projections.unhealthyAfterFailedSeconds)}: store and subscription failures are retried on their
own (from ${L.projections.retryInitialMs} ms, doubling up to ${L.projections.retryMaxMs / 1000} s, resuming from the last checkpoint), so
one still failing after that long needs a restart or an operator. \`GET /ready\` answers 503 while a read model is behind,
while writes are held at a start (the event log is checked first when it is not known sound) or a reconciliation's first
run goes on; its \`checks\` say which. A write during such a hold waits at most ${L.startupWrites.maxWaitMs / 1000} s, then
answers 503 \`/problems/writes-held\` with \`Retry-After\`.
A damaged read-model file is set aside and refilled from the log: meanwhile reads answer 503
\`/problems/read-model-rebuilding\` with \`Retry-After\`, and writes go on.
An event a read model cannot apply stops only that company's part of it (for platform records, only that record):
\`GET /sistema/proyecciones\` lists it under \`parked\`, and everything else goes on. With several instances on one
MongoDB, one of them projects (a lease of ${L.projections.leaseTtlSeconds} s, renewed every ${L.projections.leaseRenewSeconds} s); the others
show \`standby\` and serve its read models.

## Errors
Every error is \`application/problem+json\` (RFC 9457): \`type\` (\`/problems/<code>\`, stable and documented per route),
\`title\`, \`status\`, \`detail\`, \`instance\` (the request path), \`correlationId\` (also in the \`X-Request-Id\` response
header; clients may send their own \`X-Request-Id\`), and for invalid input \`errors[]\` with one
\`{pointer, message}\` per problem, the pointer naming the field (\`/body/email\`, \`/query/limit\`, \`/params/id\`,
\`/headers/if-match\`). **Schema violations answer ${VALIDATION_STATUS}** \`/problems/validation-failed\`, naming every invalid or
unexpected field; business-rule and revision conflicts answer 409; unknown routes 404 and wrong methods 405
(with \`Allow\`). A 500 never carries internals: quote its \`correlationId\`. A write the log cannot take answers 507
\`/problems/insufficient-storage\` (disk full: nothing was written; retry after \`Retry-After\`) or 503
\`/problems/event-store-stopped\` (a failed fsync stopped the log until a restart; the write was not acknowledged).

## Audit
Every change is an event carrying who (user and session), when (UTC), where (client IP and user agent), the
correlation id and, where the command has one, the reason. Sign-ins, failed attempts, second-factor replays, company
selections, refreshes and logouts are recorded too, and reads of clinical records are audited (who read which record and
the patients it names, when, from where); refused reads (403, 404) are recorded too, with their outcome.
The operations whose reads are audited say so. The log is append-only: no route erases an event. How long each type of
record is kept is company policy (\`settings.retention\`, at least ${L.audit.retentionYears} years for clinical records and
their audit); a legal hold on a patient (\`/pacientes/{id}/retencion-legal\`) keeps all of the patient's records.

## Versioning
\`info.version\` follows semantic versioning. Within a major version changes are additive only (new routes, new
optional fields, new problem types); a breaking change ships under a new major version, and the old one keeps working
through an announced deprecation period (marked \`deprecated\` in this document).`;
}
