// Route validators compile on first use (not at start), so the suite compiles every declared schema here: an invalid
// one fails CI instead of a first request.
import assert from 'node:assert/strict';
import { registeredGroups } from '../../src/http/groups.js';
import { compileRouteValidator } from '../../src/http/validation.js';
import type { RouteDecl } from '../../src/http/routeTypes.js';

describe('route schemas', () => {
  it('every declared route compiles: params, query, headers, body and each 2xx answer', () => {
    let routes = 0;
    for (const group of registeredGroups())
      for (const route of group.routes) {
        compileRouteValidator(route).compileNow();
        routes++;
      }
    assert.ok(routes > 100, `${routes} routes compiled`);
  });

  it('an invalid schema fails its compilation, naming the route and the part', () => {
    const route = {
      method: 'get',
      path: '/broken',
      query: { type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } },
      responses: {},
    } as unknown as RouteDecl;
    const validator = compileRouteValidator(route);
    assert.throws(() => validator.compileNow(), /GET \/broken query: invalid JSON Schema/);
  });
});
