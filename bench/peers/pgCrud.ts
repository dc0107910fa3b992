// Peer for the benchmark (issue 12): the same registration and list as sqliteCrud.ts on Koa + PostgreSQL (pg): the
// route's JSON Schema with the same ajv options, a unique document per company, the commit flushed before the answer
// (PostgreSQL's default synchronous_commit=on, fsync=on). Its own process; the cluster is the bench's (postgresCluster.ts).
import crypto from 'node:crypto';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import pg from 'pg';
import { compileRouteValidator } from '../../src/http/validation.js';
import { patientRoutes } from '../../src/http/routes/pacientes/patientRoutes.js';
import { ProblemError } from '../../src/problems.js';

const register = patientRoutes.find((r) => r.method === 'post' && r.path === '/pacientes')!;
const validator = compileRouteValidator(register);
const pool = new pg.Pool({ connectionString: process.env.PG_URL, max: 20 });
const TENANT = 'peer';

await pool.query(`CREATE TABLE IF NOT EXISTS patients (
  id uuid PRIMARY KEY, tenant text NOT NULL, document_key text NOT NULL, sort_name text NOT NULL, doc jsonb NOT NULL,
  UNIQUE (tenant, document_key))`);
await pool.query('CREATE INDEX IF NOT EXISTS by_name ON patients (tenant, sort_name, id)');

const app = new Koa();
app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '64kb' }));
app.use(async (ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/pacientes') {
    const limit = Math.min(Number(ctx.query.limit ?? 50), 200);
    const rows = await pool.query<{ doc: unknown }>('SELECT doc FROM patients WHERE tenant = $1 ORDER BY sort_name, id LIMIT $2', [
      TENANT,
      limit,
    ]);
    ctx.body = { items: rows.rows.map((r) => r.doc), nextCursor: null };
    return;
  }
  if (ctx.method === 'POST' && ctx.path === '/pacientes') {
    try {
      const { body } = validator.request({ params: {}, query: {}, headers: {}, body: ctx.request.body });
      const input = body as { documentType: string; documentNumber: string; givenNames: string; familyNames: string };
      const now = new Date().toISOString();
      const doc = { id: crypto.randomUUID(), ...input, status: 'active', revision: 0, createdAt: now, updatedAt: now };
      const documentKey = `${input.documentType}:${input.documentNumber.replace(/[\s.-]/g, '').toUpperCase()}`;
      await pool.query('INSERT INTO patients (id, tenant, document_key, sort_name, doc) VALUES ($1, $2, $3, $4, $5)', [
        doc.id,
        TENANT,
        documentKey,
        `${input.familyNames} ${input.givenNames}`.toLowerCase(),
        JSON.stringify(doc),
      ]);
      ctx.status = 201;
      ctx.body = doc;
    } catch (err) {
      if (err instanceof ProblemError) {
        ctx.status = err.status;
        ctx.body = { status: err.status, errors: err.errors };
      } else if ((err as { code?: string }).code === '23505') {
        ctx.status = 409;
        ctx.body = { status: 409, type: 'duplicate-document' };
      } else throw err;
    }
    return;
  }
  ctx.status = 404;
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
