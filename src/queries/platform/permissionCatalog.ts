// Every permission the registered groups declare, with the group that declares it: what the built-in 'admin' role
// holds and what GET /roles/permisos lists. The composition root sets it from the registry (src/http/groups.ts).
export interface PermissionEntry {
  permission: string;
  group: string;
}

let entries: readonly PermissionEntry[] = [];
let catalog: readonly string[] = [];

export function setPermissionCatalog(groups: Iterable<{ tag: string; permissions: readonly string[] }>): void {
  const byName = new Map<string, PermissionEntry>();
  for (const g of groups)
    for (const permission of g.permissions) if (!byName.has(permission)) byName.set(permission, { permission, group: g.tag });
  entries = [...byName.values()].sort((a, b) => a.permission.localeCompare(b.permission));
  catalog = entries.map((e) => e.permission);
}

export function permissionCatalog(): readonly string[] {
  return catalog;
}

export function permissionEntries(): readonly PermissionEntry[] {
  return entries;
}
