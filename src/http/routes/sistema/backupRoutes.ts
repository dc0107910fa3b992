// Online backups over HTTP for platform operators: take one into DATA_DIR/backups while the service runs, list them.
import { route, type JsonSchema, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import { BackupInProgressError, listBackups, takeBackup } from '../../../ops/backup/backupsDirectory.js';
import { BackupUnsupportedError } from '../../../ops/backup/onlineBackup.js';

const TAG = 'Sistema';

const BackupSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'size', 'headPosition', 'createdAt'],
  properties: {
    name: { type: 'string', description: 'In DATA_DIR/backups' },
    size: { type: 'integer' },
    headPosition: { type: 'string', description: 'Last position copied' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

export const backupRoutes: RouteDecl[] = [
  route({
    method: 'post',
    path: '/sistema/respaldos',
    tag: TAG,
    auth: 'platform',
    summary: 'Take an online backup',
    responses: {
      201: { description: 'Taken', schema: BackupSchema },
      409: problem('`/problems/backup-in-progress`, or `/problems/backup-unsupported` (not SQLite)'),
    },
    handle: async (_input, ctx) => {
      const call = {
        actor: ctx.auth!.userId,
        sessionId: ctx.auth!.sessionId,
        correlationId: ctx.correlationId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      };
      try {
        return { status: 201, body: await takeBackup(ctx.services, call) };
      } catch (err) {
        if (err instanceof BackupInProgressError || err instanceof BackupUnsupportedError)
          throw new ProblemError(409, err.code, 'Conflict', err.message);
        throw err;
      }
    },
  }),
  route({
    method: 'get',
    path: '/sistema/respaldos',
    tag: TAG,
    auth: 'platform',
    summary: 'List the backups',
    responses: {
      200: {
        description: 'Newest first',
        schema: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: BackupSchema } } },
      },
    },
    handle: async (_input, ctx) => ({ status: 200, body: { items: await listBackups(ctx.services.config.dataDir) } }),
  }),
];
