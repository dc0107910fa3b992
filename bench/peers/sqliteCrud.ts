// Peer for the benchmark (issue 12): a plain Koa + better-sqlite3 CRUD app doing the same registration and list as the
// service - the same route's JSON Schema compiled with the same ajv options, a unique document per company, a fsync
// before the answer (WAL, synchronous=FULL) - and nothing else: no events, no audit, no projections. Its own process.
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { compileRouteValidator } from '../../src/http/validation.js';
import { patientRoutes } from '../../src/http/routes/pacientes/patientRoutes.js';
import { ProblemError } from '../../src/problems.js';

const register = patientRoutes.find((r) => r.method === 'post' && r.path === '/pacientes')!;
const validator = compileRouteValidator(register);
const db = new Database(path.join(process.env.DATA_DIR ?? '.', 'peer.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS patients (
  id TEXT PRIMARY KEY, tenant TEXT NOT NULL, document_key TEXT NOT NULL, sort_name TEXT NOT NULL, doc TEXT NOT NULL,
  UNIQUE (tenant, document_key))`);
db.exec('CREATE INDEX IF NOT EXISTS by_name ON patients (tenant, sort_name, id)');
const insert = db.prepare('INSERT INTO patients (id, tenant, document_key, sort_name, doc) VALUES (?, ?, ?, ?, ?)');
const page = db.prepare('SELECT doc FROM patients WHERE tenant = ? ORDER BY sort_name, id LIMIT ?');
const TENANT = 'peer';

const app = new Koa();
app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '64kb' }));
app.use((ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/pacientes') {
    const limit = Math.min(Number(ctx.query.limit ?? 50), 200);
    const items = (page.all(TENANT, limit) as { doc: string }[]).map((r) => JSON.parse(r.doc) as unknown);
    ctx.body = { items, nextCursor: null };
    return;
  }
  if (ctx.method === 'POST' && ctx.path === '/pacientes') {
    try {
      const { body } = validator.request({ params: {}, query: {}, headers: {}, body: ctx.request.body });
      const input = body as { documentType: string; documentNumber: string; givenNames: string; familyNames: string };
      const now = new Date().toISOString();
      const doc = { id: crypto.randomUUID(), ...input, status: 'active', revision: 0, createdAt: now, updatedAt: now };
      const documentKey = `${input.documentType}:${input.documentNumber.replace(/[\s.-]/g, '').toUpperCase()}`;
      insert.run(doc.id, TENANT, documentKey, `${input.familyNames} ${input.givenNames}`.toLowerCase(), JSON.stringify(doc));
      ctx.status = 201;
      ctx.body = doc;
    } catch (err) {
      if (err instanceof ProblemError) {
        ctx.status = err.status;
        ctx.body = { status: err.status, errors: err.errors };
      } else if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        ctx.status = 409;
        ctx.body = { status: 409, type: 'duplicate-document' };
      } else throw err;
    }
    return;
  }
  ctx.status = 404;
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
