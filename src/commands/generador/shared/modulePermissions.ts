// Who may act on a company module's records: the exact `mod.<code>:<action>` or the admin's `mod.*`; shared by the
// routes, the change feed and the widgets so each decides the same way.
import {
  EVERY_MODULE_PERMISSION,
  MODULE_ACTIONS,
  MODULE_PERMISSION_PATTERN,
  modulePermission,
  type ModuleAction,
} from './definitionTypes.js';

/** True when `permissions` let the holder `action` on the records of module `code`. */
export const mayOnModule = (permissions: ReadonlySet<string>, code: string, action: ModuleAction): boolean =>
  permissions.has(EVERY_MODULE_PERMISSION) || permissions.has(modulePermission(code, action));

/** A company module permission (`mod.<code>:read|write|sign`), not the admin's `mod.*`. */
export const isModulePermission = (permission: string): boolean => MODULE_PERMISSION_PATTERN.test(permission);

/** A module permission or the admin's `mod.*`: what a company role may hold beyond the catalogue. */
export const isAnyModulePermission = (permission: string): boolean =>
  permission === EVERY_MODULE_PERMISSION || isModulePermission(permission);

/** Every permission of these modules, by code then action. */
export const permissionsOfModules = (codes: readonly string[]): string[] =>
  [...codes].sort().flatMap((code) => MODULE_ACTIONS.map((action) => modulePermission(code, action)));

/** Whether `permissions` hold any module read permission (or every module's). */
export const readsAnyModule = (permissions: ReadonlySet<string>): boolean =>
  [...permissions].some((p) => p === EVERY_MODULE_PERMISSION || (isModulePermission(p) && p.endsWith(':read')));
