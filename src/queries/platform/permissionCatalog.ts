// Every permission the registered groups declare: what the built-in 'admin' role holds. The composition
// root sets it from the registry (src/http/groups.ts) before serving.
let catalog: readonly string[] = [];

export function setPermissionCatalog(permissions: Iterable<string>): void {
  catalog = [...new Set(permissions)].sort();
}

export function permissionCatalog(): readonly string[] {
  return catalog;
}
