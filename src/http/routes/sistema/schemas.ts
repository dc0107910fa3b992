// Response schemas of the Sistema group.
import Type from 'typebox';
import { closed } from '../shared/fieldSchemas.js';
import type { JsonSchema } from '../../routeTypes.js';

export const ProjectionNameParams = closed({ name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' }) });

const RebuildProgressSchema: JsonSchema = {
  type: 'object',
  required: ['projection', 'done', 'total', 'percent', 'ratePerSecond', 'etaSeconds', 'elapsedMs', 'startedAt'],
  properties: {
    projection: { type: 'string' },
    done: { type: 'integer' },
    total: { type: 'integer' },
    percent: { type: 'number' },
    ratePerSecond: { type: 'number' },
    etaSeconds: { type: ['number', 'null'] },
    elapsedMs: { type: 'number' },
    startedAt: { type: 'string', format: 'date-time' },
  },
};

const ParkedScopeSchema: JsonSchema = {
  type: 'object',
  description: 'A tenant (or, for platform aggregates, one stream) whose events stopped at a poison event',
  required: ['scope', 'tenantId', 'position', 'eventType', 'eventStream', 'error', 'parkedAt'],
  properties: {
    scope: { enum: ['tenant', 'stream'], description: "'tenant': all of its later events are skipped; 'stream': that stream's only" },
    tenantId: { type: 'string' },
    stream: { type: 'string', description: "The parked stream (scope 'stream')" },
    position: { type: 'string', description: 'Global position of the poison event' },
    eventType: { type: 'string' },
    eventStream: { type: 'string' },
    error: { type: 'string', description: 'What the handler threw' },
    parkedAt: { type: 'string', format: 'date-time' },
  },
};

export const ProjectionStatusSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'version', 'state', 'checkpoint', 'head', 'lag', 'parked'],
  properties: {
    name: { type: 'string' },
    version: { type: 'integer' },
    state: {
      enum: ['stopped', 'standby', 'catching-up', 'live', 'rebuilding', 'failed'],
      description:
        "'standby': another instance holds the projector lease and projects; 'failed': a store or subscription error " +
        'stopped it and it retries from its checkpoint with backoff (see `retry`)',
    },
    checkpoint: { type: 'string', description: 'Global position of the last event applied' },
    head: { type: 'string', description: 'Global position of the last event in the log' },
    lag: { type: 'number', description: 'head - checkpoint, in positions (0 when caught up)' },
    error: { type: 'string', description: 'The last failure, while it lasts' },
    failedSince: { type: 'string', format: 'date-time', description: 'Failing (and retrying) since, until it recovers' },
    retry: {
      type: 'object',
      required: ['attempts', 'nextAttemptAt'],
      properties: {
        attempts: { type: 'integer', minimum: 1 },
        nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      },
    },
    parked: { type: 'array', items: ParkedScopeSchema, description: 'Scopes stopped at a poison event; every other scope goes on' },
    rebuild: RebuildProgressSchema,
  },
};

export const ProjectionListSchema: JsonSchema = {
  type: 'object',
  required: ['items'],
  properties: { items: { type: 'array', items: ProjectionStatusSchema } },
};

export const HealthSchema: JsonSchema = {
  type: 'object',
  required: ['status'],
  properties: { status: { const: 'ok' } },
};

export const ReadySchema: JsonSchema = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { const: 'ready' },
    checks: {
      type: 'object',
      required: ['eventStore', 'readStore', 'projections'],
      properties: {
        eventStore: { type: 'string' },
        readStore: { type: 'string' },
        projections: { type: 'string' },
        integrityCheck: { enum: ['running', 'passed', 'failed', 'none'] },
        writes: { enum: ['accepted', 'held', 'refused'] },
        projectionsLag: { type: 'number' },
        reconciliation: { enum: ['running', 'done'] },
      },
    },
    projections: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'state', 'lag'],
        properties: { name: { type: 'string' }, state: { type: 'string' }, lag: { type: 'number' } },
      },
    },
  },
};

export const RebuildStartedSchema: JsonSchema = {
  type: 'object',
  required: ['projection', 'state', 'statusUrl'],
  properties: {
    projection: { type: 'string' },
    state: { const: 'rebuilding' },
    statusUrl: { type: 'string', description: 'GET it to watch progress' },
  },
};

export const OpenApiDocumentSchema: JsonSchema = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
};
