// Nobody acts on someone more privileged than themselves, nor hands out more than they hold: the caller's company
// permissions judged against the target's now (a member, an API client, a role and its holders) or against a grant.
import { DomainError } from '../../decider.js';
import { EVERY_MODULE_PERMISSION } from '../../generador/shared/definitionTypes.js';
import { isModulePermission } from '../../generador/shared/modulePermissions.js';

export type PrivilegeQuestion =
  /** Rotate, re-issue, reset, change the roles of, revoke: the target holds `permissions` today. */
  | { type: 'ActOn'; target: 'member' | 'api-client' | 'role'; permissions: readonly string[] }
  /** Roles or permissions handed out: what they grant. */
  | { type: 'Grant'; permissions: readonly string[] };

/** The permissions in `wanted` the caller does not hold (`mod.*` holds every module's), sorted and unique. */
export function permissionsBeyond(caller: ReadonlySet<string>, wanted: readonly string[]): string[] {
  const held = (p: string) => caller.has(p) || (isModulePermission(p) && caller.has(EVERY_MODULE_PERMISSION));
  return [...new Set(wanted.filter((p) => !held(p)))].sort();
}

const TARGETS = { member: 'this member', 'api-client': 'this API client', role: 'this role (or someone holding it)' } as const;

/** Answers nothing when the caller may go on; throws a 403 DomainError with a stable code otherwise. */
export function decidePrivilege(caller: ReadonlySet<string>, question: PrivilegeQuestion): void {
  const beyond = permissionsBeyond(caller, question.permissions);
  if (beyond.length === 0) return;
  if (question.type === 'Grant') {
    throw new DomainError('grant-beyond-caller', `You cannot grant permissions you do not hold: ${beyond.join(', ')}`, 403, {
      permissions: beyond,
    });
  }
  // Which permissions are missing is not told: it would describe the target's roles to someone who may not read them.
  throw new DomainError(
    'target-more-privileged',
    `${TARGETS[question.target]} holds permissions you do not: only someone holding all of them can act on it`,
    403,
  );
}
