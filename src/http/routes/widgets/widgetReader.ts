// What a reader may see of the widgets: their permissions, less those of the modules their company switched off (a
// widget of a switched-off module is answered as that module's routes are: 403 module-disabled, and left out of lists).
import type { Principal } from '../../../auth/principal.js';
import type { OptionalModule } from '../../../commands/platform/company/events.js';

/** The optional module each permission group belongs to (checked against the registered groups by a test). */
export const MODULE_OF_GROUP: Readonly<Record<string, OptionalModule>> = {
  dialisis: 'Dialisis',
  monitores: 'Monitores',
  'filtros-dialisis': 'FiltrosDialisis',
  'lineas-arteriales': 'LineasArterial',
  'lineas-venosas': 'LineasVenosa',
  productos: 'Productos',
  clientes: 'Clientes',
  widgets: 'Widgets',
  generador: 'Generador',
};

/** The module a permission belongs to, when it is an optional one (a company module's `mod.*` ones: the Generador's). */
export const moduleOfPermission = (permission: string): OptionalModule | undefined =>
  permission.startsWith('mod.') ? MODULE_OF_GROUP.generador : MODULE_OF_GROUP[permission.split(':')[0]!];

const cache = new WeakMap<Principal, ReadonlySet<string>>();

/** The reader's permissions that reach a switched-on module (or no optional module at all). */
export function readerPermissions(principal: Principal): ReadonlySet<string> {
  let kept = cache.get(principal);
  if (!kept) {
    const modules = principal.company?.modules ?? [];
    const on = (permission: string) => {
      const module = moduleOfPermission(permission);
      return module === undefined || modules.includes(module);
    };
    kept = new Set([...principal.permissions].filter(on));
    cache.set(principal, kept);
  }
  return kept;
}
