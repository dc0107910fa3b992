// A group's OpenAPI tag and its permission names ('<segment>:read' ...), said once: each group takes the ones it uses.
export function groupNames<const S extends string, const T extends string>(segment: S, tag: T) {
  return { TAG: tag, READ: `${segment}:read`, WRITE: `${segment}:write`, ADMIN: `${segment}:admin` } as const;
}
