// The baseline: a bare Koa app answering a small JSON body. Started as its own process, like the service.
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { ok: true, service: 'bare-koa', time: new Date().toISOString() };
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`LISTENING ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
