import assert from 'node:assert/strict';
import { DomainError } from '../../decider.js';
import { decidePrivilege, type PrivilegeQuestion } from './decider.js';

const ADMIN = ['dialisis:sign', 'pacientes:read', 'roles:admin', 'usuarios:admin', 'usuarios:read'];

/** given the caller's permissions / when it asks / then it may go on, or is refused with a code. */
const given = (...callerPermissions: string[]) => ({
  when: (question: PrivilegeQuestion) => ({
    thenAllowed: () => assert.doesNotThrow(() => decidePrivilege(new Set(callerPermissions), question)),
    thenRefused: (code: string, details?: Record<string, unknown>) =>
      assert.throws(
        () => decidePrivilege(new Set(callerPermissions), question),
        (err: unknown) => {
          assert.ok(err instanceof DomainError);
          assert.deepEqual([err.code, err.status], [code, 403]);
          if (details) assert.deepEqual(err.details, details);
          return true;
        },
      ),
  }),
});
const actOn = (target: 'member' | 'api-client' | 'role', ...permissions: string[]): PrivilegeQuestion => ({
  type: 'ActOn',
  target,
  permissions,
});
const grant = (...permissions: string[]): PrivilegeQuestion => ({ type: 'Grant', permissions });

describe('Privilege: nobody acts on someone more privileged, nor grants more than they hold', () => {
  it('refuses a caller with only usuarios:admin acting on an admin member, client or role', () => {
    given('usuarios:admin')
      .when(actOn('member', ...ADMIN))
      .thenRefused('target-more-privileged');
    given('usuarios:admin')
      .when(actOn('api-client', ...ADMIN))
      .thenRefused('target-more-privileged');
    given('roles:admin').when(actOn('role', 'dialisis:sign')).thenRefused('target-more-privileged');
  });

  it('refuses when a single permission of the target is missing, and does not tell which', () => {
    given(...ADMIN.filter((p) => p !== 'dialisis:sign'))
      .when(actOn('member', ...ADMIN))
      .thenRefused('target-more-privileged');
    assert.throws(
      () => decidePrivilege(new Set(['usuarios:admin']), actOn('member', 'dialisis:sign')),
      (err: unknown) => err instanceof DomainError && !err.message.includes('dialisis:sign') && err.details === undefined,
    );
  });

  it('allows acting on a peer (the same permissions), on someone holding less, and on someone holding nothing', () => {
    given('usuarios:admin').when(actOn('member', 'usuarios:admin')).thenAllowed();
    given(...ADMIN)
      .when(actOn('api-client', 'pacientes:read'))
      .thenAllowed();
    given('usuarios:admin').when(actOn('member')).thenAllowed();
  });

  it('refuses a grant beyond the caller and names what it lacks; allows a grant within', () => {
    given('usuarios:admin', 'pacientes:read')
      .when(grant('pacientes:read', 'dialisis:sign', 'dialisis:sign', 'auditoria:read'))
      .thenRefused('grant-beyond-caller', { permissions: ['auditoria:read', 'dialisis:sign'] });
    given('usuarios:admin', 'pacientes:read').when(grant('pacientes:read')).thenAllowed();
    given('usuarios:admin').when(grant()).thenAllowed();
  });

  it("lets every module's holder (mod.*) grant and act on module permissions, others only on those they hold", () => {
    given('roles:admin', 'mod.*').when(grant('mod.vacuna-hb:read', 'mod.agua:sign')).thenAllowed();
    given('roles:admin', 'mod.*').when(actOn('member', 'mod.vacuna-hb:write')).thenAllowed();
    given('roles:admin', 'mod.vacuna-hb:read').when(grant('mod.vacuna-hb:read')).thenAllowed();
    given('roles:admin', 'mod.vacuna-hb:read')
      .when(grant('mod.vacuna-hb:read', 'mod.vacuna-hb:sign'))
      .thenRefused('grant-beyond-caller', { permissions: ['mod.vacuna-hb:sign'] });
    given('roles:admin', 'mod.vacuna-hb:read').when(actOn('member', 'mod.*')).thenRefused('target-more-privileged');
  });
});
