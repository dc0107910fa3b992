// A group's routes with its tag and auth said once: each route names its method, path and permission, and its
// handler's input is typed from its TypeBox schemas as with `route`.
import { route, type RouteAuth, type RouteDecl, type TypedRouteDecl } from '../../routeTypes.js';
import type { TSchema } from 'typebox';

type Said = 'method' | 'path' | 'tag' | 'auth' | 'permission';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type GroupRouteDecl<PS, QS, BS> = Omit<TypedRouteDecl<PS, QS, BS>, Said | 'params' | 'query' | 'body'> & {
  params?: PS;
  query?: QS;
  body?: BS;
};
type Declare = <
  PS extends TSchema | undefined = undefined,
  QS extends TSchema | undefined = undefined,
  BS extends TSchema | undefined = undefined,
>(
  path: string,
  permission: string | null,
  decl: GroupRouteDecl<PS, QS, BS>,
) => RouteDecl;

/** `routes.post('/roles', ADMIN, {...})`: the group's tag and auth on every route; null permission: auth alone decides. */
export function groupRoutes(tag: string, auth: RouteAuth = 'tenant'): Record<Method, Declare> {
  const at =
    (method: Method): Declare =>
    (path, permission, decl) =>
      // The call checked the handler against its schemas; `route` only needs the declaration whole.
      route({ ...decl, method, path, tag, auth, ...(permission === null ? {} : { permission }) } as unknown as TypedRouteDecl<
        undefined,
        undefined,
        undefined
      >);
  return { get: at('get'), post: at('post'), put: at('put'), patch: at('patch'), delete: at('delete') };
}
