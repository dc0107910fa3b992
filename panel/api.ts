// The page's calls to the service: the access token kept in sessionStorage only, refreshed once on a 401 through
// POST /auth/refresh (rotating refresh tokens), and problem+json answers turned into errors that say what went wrong.

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type?: string,
  ) {
    super(message);
  }
}

const KEY = 'panel.tokens';

export function savedTokens(): TokenPair | null {
  const text = sessionStorage.getItem(KEY);
  if (!text) return null;
  try {
    return JSON.parse(text) as TokenPair;
  } catch {
    return null;
  }
}

export function keepTokens(tokens: TokenPair | null): void {
  if (tokens) sessionStorage.setItem(KEY, JSON.stringify(tokens));
  else sessionStorage.removeItem(KEY);
}

/** The problem+json detail (or title) of a failed answer, else its status line. */
async function problemOf(res: Response): Promise<ApiError> {
  let detail = `${res.status} ${res.statusText}`;
  let type: string | undefined;
  try {
    const body = (await res.json()) as { title?: string; detail?: string; type?: string };
    detail = body.detail ?? body.title ?? detail;
    type = body.type;
  } catch {
    // not JSON: the status line says it
  }
  return new ApiError(res.status, detail, type);
}

let refreshing: Promise<boolean> | null = null;

/** Exchanges the refresh token for a new pair (once at a time); false when the session is over. */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const tokens = savedTokens();
    if (!tokens) return false;
    const res = await fetch('/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: tokens.refreshToken }),
    });
    if (!res.ok) {
      keepTokens(null);
      return false;
    }
    keepTokens((await res.json()) as TokenPair);
    return true;
  })().finally(() => (refreshing = null));
  return refreshing;
}

export const authorization = (): Record<string, string> => {
  const tokens = savedTokens();
  return tokens ? { authorization: `Bearer ${tokens.accessToken}` } : {};
};

/** A JSON call; with `auth`, a 401 refreshes the tokens and retries once. */
export async function api<T>(method: string, path: string, body?: unknown, auth = true): Promise<T> {
  const send = () =>
    fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(auth ? authorization() : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let res = await send();
  if (res.status === 401 && auth && (await refreshTokens())) res = await send();
  if (!res.ok) throw await problemOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
