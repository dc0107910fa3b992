// /dialisis/sesiones/{id}/... writes along the session's life: check-in, pre block, safety checks, pause, readings,
// complications, medications, end, post block, interruption, the nurse's signature and the physician's validation
// (step-up code), amendments and addenda. Each answers the whole session as recorded.
import type { CommandContext } from '../../../commands/handleCommand.js';
import {
  addAddendum,
  administerMedication,
  amendSession,
  entryIdFor,
  sessionCommand,
  signSession,
  type PlainInput,
} from '../../../commands/dialisis/session/sessionWrites.js';
import type { RouteDecl } from '../../routeTypes.js';
import { sessionDeps, signDeps } from '../../../facts/dialisis/index.js';
import {
  AddendumBody,
  AmendBody,
  ComplicationBody,
  EmptyBody,
  EndBody,
  InterruptBody,
  MedicationBody,
  PauseBody,
  PostBody,
  PreBody,
  ReadingBody,
  SafetyBody,
  SignBody,
} from './sessionSchemas.js';
import { sessionActionRoute, type SessionWrite } from './sessionKit.js';

const plain =
  <B>(toCommand: (body: B, id: string, ctx: CommandContext) => PlainInput): SessionWrite<B> =>
  (services, ctx, id, body, ifMatch) =>
    sessionCommand(sessionDeps(services), ctx, id, toCommand(body, id, ctx), ifMatch);
const as = <T extends PlainInput['type']>(type: T, data: unknown): PlainInput => ({ type, data });

export const sessionWriteRoutes: RouteDecl[] = [
  sessionActionRoute({
    path: 'llegada',
    summary: "Check the patient in (the session's arrival time is now)",
    description: 'Only a scheduled session; a cancelled, no-show or later session answers 409.',
    body: EmptyBody,
    write: plain(() => as('CheckInPatient', {})),
  }),
  sessionActionRoute({
    path: 'pre-dialisis',
    summary: 'Record the pre-dialysis block (weights with their tare, vital signs, access, pre BUN)',
    description: 'Recorded again before signing, the latest counts and the history keeps each; after signing only an amendment changes it.',
    body: PreBody,
    write: plain((body) => as('RecordPreDialysis', body)),
  }),
  sessionActionRoute({
    path: 'controles-seguridad',
    summary: 'Record the per-treatment machine safety checks (domain.md 2.13)',
    description:
      'Conductivity against its target (within 5 %), dialysate pH (6.5-7.5), no residual disinfectant, air and blood-leak detectors, alarms. A failed check stops the start.',
    body: SafetyBody,
    write: plain((body) => as('RecordSafetyChecks', body)),
  }),
  sessionActionRoute({
    path: 'pausa',
    summary: 'Pause the treatment (the pause does not count as treatment time)',
    description: "Only a session in progress; at most the company's sessionLimits.pauses (409 session-limit-reached).",
    body: PauseBody,
    write: plain((body) => as('PauseSession', body)),
  }),
  sessionActionRoute({
    path: 'reanudacion',
    summary: 'Resume a paused treatment',
    description: 'Only a paused session.',
    body: EmptyBody,
    write: plain(() => as('ResumeSession', {})),
  }),
  sessionActionRoute({
    path: 'lecturas',
    summary: 'Record an intradialytic reading (its time inside the session)',
    description:
      'Between the start and the end (or now); the diastolic below the systolic. A retried request with the same Idempotency-Key adds nothing. ' +
      "At most the company's sessionLimits.readings per session (default 300; 409 session-limit-reached naming the limit).",
    body: ReadingBody,
    write: plain((body, id, ctx) => as('RecordReading', { ...body, readingId: entryIdFor('reading', id, ctx.idempotencyKey) })),
  }),
  sessionActionRoute({
    path: 'complicaciones',
    summary: 'Record a complication (coded, with severity, intervention and outcome)',
    description: "Its time inside the session. At most the company's sessionLimits.complications (409 session-limit-reached).",
    body: ComplicationBody,
    write: plain((body, id, ctx) =>
      as('RecordComplication', { ...body, complicationId: entryIdFor('complication', id, ctx.idempotencyKey) }),
    ),
  }),
  sessionActionRoute({
    path: 'medicaciones',
    summary: 'Record a medication administered (dose, route, time, lot) or not given (with the reason)',
    description:
      'From check-in until signing; an expired lot is refused. A productId names the product of the company given (422 otherwise): ' +
      "when the session ends, its supplies issue stockQuantity units (default 1) of it, with the lot, from the kit's warehouse. " +
      "At most the company's sessionLimits.medications (409 session-limit-reached).",
    body: MedicationBody,
    write: (services, ctx, id, body, ifMatch) => {
      const data = { ...body, medicationId: entryIdFor('medication', id, ctx.idempotencyKey) };
      return administerMedication(sessionDeps(services), ctx, id, data, ifMatch);
    },
  }),
  sessionActionRoute({
    path: 'fin',
    summary: 'End the treatment (now, or at a stated instant when charted after the fact)',
    description:
      'The effective time leaves out the pauses. A stated endedAt is not in the future, after the start and not before a reading ' +
      '(422 naming it). The machine then gets the hours and awaits disinfection; the dialyzer and lines get a use (process manager).',
    body: EndBody,
    write: plain((body) => as('EndSession', body)),
  }),
  sessionActionRoute({
    path: 'post-dialisis',
    summary: 'Record the post-dialysis block (weights, vital signs, machine UF, post BUN)',
    description: 'After the end or an interruption, before signing.',
    body: PostBody,
    write: plain((body) => as('RecordPostDialysis', body)),
  }),
  sessionActionRoute({
    path: 'interrupcion',
    summary: 'Interrupt a treatment in progress (reason code; the partial data is kept)',
    description: 'The machine, dialyzer and lines still get the use. interruptedAt is stated like the end (default now).',
    body: InterruptBody,
    write: plain((body) => as('InterruptSession', body)),
  }),
  sessionActionRoute({
    path: 'firma',
    summary: "The nurse's sign-off (a fresh authenticator code; a staff record with a valid licence)",
    description:
      'Required blocks missing answer 409 naming them; afterwards only amendments (within the editing window) and addenda. ' +
      'Needs a person (never an API client, 403 people-only) with a clinical staff record allowed to sign.',
    body: SignBody,
    permission: 'dialisis:sign',
    write: (services, ctx, id, body, ifMatch) => signSession(signDeps(services), ctx, id, { kind: 'sign', code: body.code }, ifMatch),
  }),
  sessionActionRoute({
    path: 'validacion',
    summary: "The physician's validation of a signed session (a fresh authenticator code; not the nurse who signed)",
    description:
      "Needs a person (never an API client, 403 people-only) whose staff record holds a physician's position (cargos-laborales " +
      'physician) with a valid licence: any other answers 409 signer-may-not-sign naming the reasons (position-not-physician).',
    body: SignBody,
    permission: 'dialisis:validate',
    write: (services, ctx, id, body, ifMatch) => signSession(signDeps(services), ctx, id, { kind: 'validate', code: body.code }, ifMatch),
  }),
  sessionActionRoute({
    path: 'enmiendas',
    summary: 'Amend a block of a signed session, with the reason, within the editing window (a fresh authenticator code)',
    description:
      "Block 'times' corrects the start and end instants (the treatment time follows). The values and flags are judged again. " +
      "A new event: the original values stay in the history. After the company's editing window only addenda (409 editing-window-closed). " +
      'Needs a person (never an API client, 403 people-only) with a clinical staff record allowed to sign (409 signer-may-not-sign) ' +
      'and a fresh code. An amendment of a validated session sends it back to signed, awaiting validation again; the earlier ' +
      "validation stays in earlierValidations. At most the company's sessionLimits.amendments (409 session-limit-reached).",
    body: AmendBody,
    permission: 'dialisis:sign',
    ifMatchRequired: true,
    write: (services, ctx, id, body, ifMatch) => amendSession(signDeps(services), ctx, id, body, ifMatch),
  }),
  sessionActionRoute({
    path: 'adendas',
    summary: 'Add an addendum to a signed session (a fresh authenticator code)',
    description:
      'Any time after signing; the record itself never changes. Needs a person (never an API client, 403 people-only) with a ' +
      "clinical staff record allowed to sign and a fresh code. At most the company's sessionLimits.addenda (409 session-limit-reached).",
    body: AddendumBody,
    permission: 'dialisis:sign',
    write: (services, ctx, id, body, ifMatch) => addAddendum(signDeps(services), ctx, id, body, ifMatch),
  }),
];
