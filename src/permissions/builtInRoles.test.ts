import assert from 'node:assert/strict';
import { permissionsOf } from './builtInRoles.js';

describe('permissions a set of roles grants', () => {
  const roles = {
    admin: { name: 'Administrator', permissions: [], grantsAll: true },
    scribe: { name: 'Scribe', permissions: ['pacientes:read'], grantsAll: false },
    rogue: { name: 'Rogue', permissions: ['pacientes:read', 'sistema:admin', 'platform:anything'], grantsAll: false },
  };
  const catalog = ['pacientes:read', 'pacientes:write', 'sistema:read'];

  it('gives admin the whole catalog, other roles their list, unknown roles nothing', () => {
    assert.deepEqual(permissionsOf(roles, ['admin'], catalog), ['mod.*', ...catalog]);
    assert.deepEqual(permissionsOf(roles, ['scribe'], catalog), ['pacientes:read']);
    assert.ok(permissionsOf(roles, ['nurse'], catalog).includes('pacientes:write'), 'built-in roles come from code');
    assert.deepEqual(permissionsOf(roles, ['ghost'], catalog), []);
  });

  it('grants nothing a role lists outside the company catalog', () => {
    assert.deepEqual(permissionsOf(roles, ['rogue'], ['pacientes:read', 'pacientes:write']), ['pacientes:read']);
  });
});
