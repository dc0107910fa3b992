// The list floor for the benchmark (issue 12): the same page of 50 documents the service answers, held in memory and
// stringified on every request - what a list costs with no store, no query and no access control at all.
import fs from 'node:fs';
import Koa from 'koa';

const page: unknown = JSON.parse(fs.readFileSync(process.env.PAGE_FILE ?? '', 'utf8'));
const app = new Koa();
app.use((ctx) => {
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(page);
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
