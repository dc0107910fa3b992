// Remembered router matches answer what the router answers, and each caller gets lists of its own.
import assert from 'node:assert/strict';
import { Router } from '@koa/router';
import { rememberMatches } from './rememberedMatches.js';

describe('remembered router matches', () => {
  const router = new Router();
  const routes = (r: Router) => {
    r.register('/pacientes', ['get'], () => undefined);
    r.register('/pacientes/buscar', ['get'], () => undefined);
    r.register('/pacientes/:id', ['get', 'patch'], () => undefined);
    r.register('/pacientes/:id/notas/:noteId', ['get'], () => undefined);
  };
  routes(router);
  const plain = new Router();
  routes(plain);
  let asked = 0;
  const ask = router.match.bind(router);
  router.match = (path, method) => (asked++, ask(path, method));
  rememberMatches(router);
  const A = '0b6f6c2e-3c1d-4e5a-9f7b-1a2b3c4d5e6f';
  const B = 'F1E2D3C4-B5A6-4978-8a9b-0c1d2e3f4a5b';
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
      ['/pacientes/buscar', 'GET'],
      [`/pacientes/${A}`, 'GET'],
      [`/pacientes/${B}`, 'PATCH'],
      [`/pacientes/${A}/notas/${B}`, 'GET'],
      [`/pacientes/${A}x`, 'GET'],
      [`/pacientes/${A}/nada`, 'GET'],
    ] as const) {
      for (let n = 0; n < 2; n++)
        assert.deepEqual(shape(router.match(path, method)), shape(plain.match(path, method)), `${method} ${path}`);
    }
  });

  it('asks the router once for every id in the same place', () => {
    const before = asked;
    for (let i = 0; i < 50; i++) {
      const id = `${i.toString(16).padStart(8, '0')}-1111-4222-8333-444455556666`;
      assert.deepEqual(shape(router.match(`/pacientes/${id}/notas/${A}`, 'GET')), shape(plain.match(`/pacientes/${id}/notas/${A}`, 'GET')));
    }
    assert.ok(asked - before <= 1, `the router was asked ${asked - before} times`);
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
