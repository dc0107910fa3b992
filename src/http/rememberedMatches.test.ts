// Remembered router matches answer what the router answers, and each caller gets lists of its own.
import assert from 'node:assert/strict';
import { Router } from '@koa/router';
import { rememberMatches } from './rememberedMatches.js';

describe('remembered router matches', () => {
  const router = new Router();
  router.register('/pacientes', ['get'], () => undefined);
  router.register('/pacientes/:id', ['get', 'patch'], () => undefined);
  const plain = new Router();
  plain.register('/pacientes', ['get'], () => undefined);
  plain.register('/pacientes/:id', ['get', 'patch'], () => undefined);
  rememberMatches(router);
  const shape = (m: ReturnType<Router['match']>) => ({
    route: m.route,
    path: m.path.map((l) => [l.path, l.methods]),
    pathAndMethod: m.pathAndMethod.map((l) => [l.path, l.methods]),
  });

  it('answers as the router does, the first time and every later one', () => {
    for (const [path, method] of [
      ['/pacientes', 'GET'],
      ['/pacientes/7', 'PATCH'],
      ['/pacientes/7', 'DELETE'],
      ['/nada', 'GET'],
    ] as const) {
      for (let n = 0; n < 2; n++)
        assert.deepEqual(shape(router.match(path, method)), shape(plain.match(path, method)), `${method} ${path}`);
    }
  });

  it('hands each caller its own lists', () => {
    const first = router.match('/pacientes', 'GET');
    first.path.push(...first.path);
    first.pathAndMethod.length = 0;
    const again = router.match('/pacientes', 'GET');
    assert.equal(again.path.length, 1);
    assert.equal(again.pathAndMethod.length, 1);
  });
});
