// A small resource group declared for the spine tests: real routes, a real decider through handleCommand,
// a real projection, and an Authenticate that knows a fixed table of tokens.
import type { GroupModule } from '../../src/http/groupModule.js';
import Type from 'typebox';
import { route, type RouteDecl } from '../../src/http/routeTypes.js';
import type { Principal } from '../../src/auth/principal.js';
import type { Authenticate } from '../../src/http/app.js';
import { unauthorized } from '../../src/problems.js';
import { problem, PageQueryFields, MinPositionField } from '../../src/http/commonSchemas.js';
import { commandContextOf } from '../../src/http/commandContext.js';
import { writeHeaders } from '../../src/http/recordHeaders.js';
import { awaitMinPosition } from '../../src/http/readYourWrites.js';
import { PreparedJson } from '../../src/http/preparedJson.js';
import { handleCommand } from '../../src/commands/handleCommand.js';
import type { Decider } from '../../src/commands/decider.js';
import { DomainError, notFound } from '../../src/commands/decider.js';
import { newId, uuidV5 } from '../../src/commands/eventIds.js';
import { applyTo, type Projection } from '../../src/projections/runner/projection.js';
import { readModelRebuilding } from '../../src/stores/readModelRebuilding.js';

const principal = (tenantId: string | null, permissions: string[], platformAdmin = false): Principal => ({
  userId: `user-${tenantId ?? 'none'}-${permissions.length}`,
  sessionId: 'session-1',
  email: 'nurse@example.org',
  tenantId,
  permissions: new Set(permissions),
  platformAdmin,
  company: tenantId ? { status: 'active', modules: [] } : null,
});

/** The tokens the test Authenticate accepts, each naming one principal. */
export const TOKENS = {
  noCompany: 'tok-no-company',
  reader: 'tok-clinicA-reader',
  noPermission: 'tok-clinicA-nothing',
  admin: 'tok-clinicA-admin',
} as const;

const PRINCIPALS: Record<string, Principal> = {
  [TOKENS.noCompany]: principal(null, []),
  [TOKENS.reader]: principal('clinicA', ['notas:read']),
  [TOKENS.noPermission]: principal('clinicA', []),
  [TOKENS.admin]: principal('clinicA', ['notas:read'], true),
};

export const testAuthenticate: Authenticate = (token) => {
  const p = PRINCIPALS[token];
  return p ? Promise.resolve(p) : Promise.reject(unauthorized('The access token is invalid or expired'));
};

type NoteCommand = {
  type: 'AddNote';
  data: { text: string; priority: number };
  at: string;
  actor: string;
  aggregateId: string;
  tenantId: string;
};
type NoteEvent = { type: 'NoteAdded'; data: { text: string; priority: number; at: string } };
const noteDecider: Decider<NoteCommand, NoteEvent, { exists: boolean }> = {
  category: 'note',
  initialState: { exists: false },
  evolve: () => ({ exists: true }),
  decide: (cmd) => [{ type: 'NoteAdded', data: { ...cmd.data, at: cmd.at } }],
};

export const notesProjection: Projection = {
  name: 'notes',
  version: 1,
  collections: { notes: [] },
  eventTypes: ['NoteAdded'],
  handle: (event, tx) =>
    applyTo(tx, 'notes', event.metadata.tenantId, event.streamName.split('-').slice(1).join('-'), event, () => ({
      tenantId: event.metadata.tenantId,
      id: event.streamName.split('-').slice(1).join('-'),
      text: (event.data as { text: string }).text,
    })),
};

const NoteBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 200 }), priority: Type.Integer({ minimum: 1, maximum: 5 }) },
  { additionalProperties: false },
);
const NoteView = {
  type: 'object',
  required: ['id', 'text', 'priority'],
  properties: { id: { type: 'string' }, text: { type: 'string' }, priority: { type: 'integer' }, position: { type: 'string' } },
  additionalProperties: false,
};
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
const PageQuery = Type.Object({ ...PageQueryFields, ...MinPositionField }, { additionalProperties: false });
const RuleBody = Type.Object({ kind: Type.Enum(['rule', 'fields']) });

/** Lets a test hold the slow route's handler until it has observed what it wants. */
export interface Gate {
  entered: Promise<void>;
  release(): void;
}
export function newGate(): Gate & { enter(): void; wait: Promise<void> } {
  let enter!: () => void;
  let release!: () => void;
  const entered = new Promise<void>((r) => (enter = r));
  const wait = new Promise<void>((r) => (release = r));
  return { entered, enter, release, wait };
}

// Kept across requests, as a prepared list page is: the schema check must hold on every send, not only the first.
const PREPARED_DRIFTING = PreparedJson.of({ ok: 'yes' });
const PREPARED_CONFORMING = PreparedJson.of({ ok: true });

export function testGroup(gate: { current: ReturnType<typeof newGate> | null }): GroupModule {
  const tag = 'Notas';
  const routes: RouteDecl[] = [
    route({
      method: 'post',
      path: '/notas',
      tag,
      auth: 'public',
      idempotent: true,
      summary: 'Add a note',
      body: NoteBody,
      responses: {
        201: {
          description: 'Added',
          schema: NoteView,
          headers: { Location: 'The note', ETag: 'Revision', 'X-Event-Position': 'Consistency token of the write' },
        },
      },
      handle: async (input, ctx) => {
        const id = ctx.idempotencyKey ? uuidV5(ctx.idempotencyKey) : newId();
        const result = await handleCommand(
          ctx.services.events,
          noteDecider,
          { type: 'AddNote', data: input.body, aggregateId: id },
          commandContextOf(ctx),
        );
        return {
          status: 201,
          body: { id, ...input.body, position: result.position },
          headers: writeHeaders({ revision: result.revision, position: result.position, location: `/notas/${id}` }),
        };
      },
    }),
    route({
      method: 'get',
      path: '/notas',
      tag,
      auth: 'public',
      summary: 'List notes (read your writes)',
      query: PageQuery,
      responses: {
        200: {
          description: 'Notes',
          schema: {
            type: 'object',
            required: ['limit', 'items'],
            properties: { limit: { type: 'integer' }, items: { type: 'array', items: { type: 'object' } } },
          },
        },
      },
      handle: async (input, ctx) => {
        const q = input.query;
        await awaitMinPosition(ctx, q.minPosition, ['notes']);
        const page = await ctx.services.projections.collection('notes', 'notes').find('platform', {}, { limit: q.limit });
        return { status: 200, body: { limit: q.limit, items: page.items } };
      },
    }),
    route({
      method: 'get',
      path: '/notas/{id}',
      tag,
      auth: 'tenant',
      permission: 'notas:read',
      summary: 'Read a note (audited)',
      params: IdParams,
      auditAccess: (input) => ({ recordType: 'note', recordId: input.params.id }),
      responses: { 200: { description: 'The note', schema: { type: 'object' } }, 404: problem('No such note') },
      handle: async (input, ctx) => {
        const { id } = input.params;
        const events = await ctx.services.events.readStream(`platform.note-${id}`);
        if (events.length === 0) throw notFound('note');
        return { status: 200, body: { id, scope: commandContextOf(ctx).tenantId } };
      },
    }),
    {
      method: 'post',
      path: '/lento',
      tag,
      auth: 'public',
      idempotent: true,
      summary: 'Slow idempotent route (held by the test)',
      body: { type: 'object' },
      responses: { 200: { description: 'Done', schema: { type: 'object' } } },
      handle: async () => {
        const g = gate.current!;
        g.enter();
        await g.wait;
        return { status: 200, body: { done: true } };
      },
    },
    {
      method: 'get',
      path: '/boom',
      tag,
      auth: 'public',
      summary: 'Fails unexpectedly',
      responses: { 200: { description: 'Never' } },
      handle: () => Promise.reject(new Error('secret internal detail: /var/lib/clinic/db.sqlite')),
    },
    {
      method: 'get',
      path: '/ocupado',
      tag,
      auth: 'public',
      summary: 'Answers 503 on purpose, as a read does while the read models are refilled',
      responses: { 200: { description: 'Never' }, 503: problem('Read models being rebuilt', { 'Retry-After': 'Seconds to wait' }) },
      handle: () => Promise.reject(readModelRebuilding()),
    },
    route({
      method: 'post',
      path: '/reglas',
      tag,
      auth: 'public',
      summary: 'Breaks business rules',
      body: RuleBody,
      responses: { 200: { description: 'Never' }, 409: problem('Rule broken'), 422: problem('Fields') },
      handle: (input) =>
        Promise.reject(
          input.body.kind === 'rule'
            ? new DomainError('note-locked', 'the note is locked', 409, { lockedBy: 'u1' })
            : new DomainError('validation-failed', 'Invalid data', 422, { errors: [{ field: 'birthDate', message: 'is in the future' }] }),
        ),
    }),
    {
      method: 'get',
      path: '/drift',
      tag,
      auth: 'public',
      summary: 'Answers a body its schema does not allow',
      responses: {
        200: { description: 'Declared shape', schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } },
      },
      handle: () => Promise.resolve({ status: 200, body: { ok: 'yes' } }),
    },
    {
      method: 'get',
      path: '/drift-prepared',
      tag,
      auth: 'public',
      summary: 'Answers a prepared body (one text, sent on every call) its schema does not allow, or one it allows',
      query: { type: 'object', additionalProperties: false, properties: { conforming: { type: 'boolean' } } },
      responses: {
        200: { description: 'Declared shape', schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } },
      },
      handle: (input) =>
        Promise.resolve({
          status: 200,
          body: (input.query as { conforming?: boolean }).conforming ? PREPARED_CONFORMING : PREPARED_DRIFTING,
        }),
    },
    {
      method: 'get',
      path: '/yo',
      tag,
      auth: 'session',
      summary: 'Who am I',
      responses: { 200: { description: 'The principal', schema: { type: 'object' } } },
      handle: (_input, ctx) =>
        Promise.resolve({
          status: 200,
          body: { userId: ctx.auth!.userId, tenantId: ctx.auth!.tenantId, scope: commandContextOf(ctx).tenantId },
        }),
    },
  ];
  return { tag, description: 'Notes used by the spine tests', permissions: ['notas:read'], routes, projections: [notesProjection] };
}
