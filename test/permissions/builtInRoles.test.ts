import assert from 'node:assert/strict';
import { BUILT_IN_ROLES, PERMISSION_GROUPS } from '../../src/permissions/builtInRoles.js';
import { registeredGroups } from '../../src/http/groups.js';

describe('built-in roles', () => {
  it('name only permissions of the service groups (by path), so a group added later reaches the jobs it serves', () => {
    for (const role of BUILT_IN_ROLES) {
      for (const permission of role.permissions) {
        const [group, action] = permission.split(':');
        assert.ok((PERMISSION_GROUPS as readonly string[]).includes(group!), `${role.code}: ${permission} names no group`);
        assert.match(action ?? '', /^[a-z][a-z-]*$/, `${role.code}: ${permission}`);
      }
    }
  });

  it('every permission a registered group declares is named after one of those groups', () => {
    for (const group of registeredGroups()) {
      for (const permission of group.permissions)
        assert.ok((PERMISSION_GROUPS as readonly string[]).includes(permission.split(':')[0]!), permission);
    }
  });

  it('only the admin role holds everything; the auditor changes no record (reading notes; a legal hold keeps them)', () => {
    assert.deepEqual(
      BUILT_IN_ROLES.filter((r) => r.grantsAll).map((r) => r.code),
      ['admin'],
    );
    const auditor = BUILT_IN_ROLES.find((r) => r.code === 'auditor')!;
    assert.ok(auditor.permissions.every((p) => /:(read|audit|export|notes|legal-hold)$/.test(p)));
  });
});
