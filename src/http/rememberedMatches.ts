// The router's answer for a method and path, remembered: @koa/router tests every route's regular expression on every
// request (~5-8 % of a list's CPU profile), though the routes never change once the app is built. Bounded (paths
// carry ids); each request gets its own copy of the layer lists, which the router may extend.
import type { MatchResult, Router } from '@koa/router';

const MAX_REMEMBERED = 2048;

export function rememberMatches(router: Router): void {
  const match = router.match.bind(router);
  const remembered = new Map<string, MatchResult>();
  router.match = (path, method) => {
    const key = `${method} ${path}`;
    let found = remembered.get(key);
    if (!found) {
      found = match(path, method);
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
      remembered.set(key, found);
    }
    return { ...found, path: [...found.path], pathAndMethod: [...found.pathAndMethod] };
  };
}
