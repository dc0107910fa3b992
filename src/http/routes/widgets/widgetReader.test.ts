import assert from 'node:assert/strict';
import { registeredGroups } from '../../groups.js';
import { isOptionalModule } from '../../../commands/platform/company/events.js';
import { MODULE_OF_GROUP, readerPermissions } from './widgetReader.js';
import type { Principal } from '../../../auth/principal.js';

describe('widget reader permissions', () => {
  it('maps every permission of an optional module to that module, and no other permission', () => {
    for (const group of registeredGroups()) {
      for (const permission of group.permissions) {
        const prefix = permission.split(':')[0]!;
        assert.equal(MODULE_OF_GROUP[prefix], isOptionalModule(group.tag) ? group.tag : undefined, permission);
      }
    }
  });

  it('keeps the permissions of switched-on modules and of the service itself', () => {
    const principal = {
      permissions: new Set(['monitores:read', 'productos:read', 'pacientes:read', 'widgets:read']),
      company: { status: 'active', modules: ['Productos', 'Widgets'] },
    } as unknown as Principal;
    assert.deepEqual([...readerPermissions(principal)].sort(), ['pacientes:read', 'productos:read', 'widgets:read']);
  });
});
