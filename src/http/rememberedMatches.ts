// The router's answer for a method and path, remembered: @koa/router tests every route's regular expression on every
// request (~5-8 % of a list's CPU profile), though the routes never change once the app is built. Bounded (paths
// carry ids); each request gets its own copy of the layer lists, which the router may extend.
import type { MatchResult, Router } from '@koa/router';

const MAX_REMEMBERED = 2048;

/** A path segment that is a record id: every route matches one as it matches any other (`{id}` is any segment). */
const ID_SEGMENT = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/gi;
const ANY_ID = '/00000000-0000-0000-0000-000000000000';

/**
 * Ids are matched as one shape: reads by id name a new path each time (a patient, a session), and kept by path they
 * missed every time (~10 % of a read by id's CPU). The router only lists the layers here; their params are taken
 * from the request's own path when they run.
 */
const pathShape = (path: string): string => path.replace(ID_SEGMENT, ANY_ID);

export function rememberMatches(router: Router): void {
  const match = router.match.bind(router);
  const remembered = new Map<string, MatchResult>();
  router.match = (path, method) => {
    const shape = pathShape(path);
    const key = `${method} ${shape}`;
    let found = remembered.get(key);
    if (!found) {
      found = match(shape, method);
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
      remembered.set(key, found);
    }
    return { ...found, path: [...found.path], pathAndMethod: [...found.pathAndMethod] };
  };
}
