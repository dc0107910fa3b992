// A typed client for the dialysis records API: openapi-fetch over the contract's generated types (schema.ts), with
// the two ways a program signs in (a person's password + TOTP secret, or an API client's credentials) done for it.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { generate } from 'otplib';
import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

/** Every operation of the contract: `client.GET('/pacientes', { params: { query: { limit: 10 } } })`. */
export type DialysisClient = Client<paths>;

export interface ConnectOptions {
  /** The service's root URL, e.g. https://records.clinic.example */
  baseUrl: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: (input: Request) => Promise<Response>;
}

/** A client without credentials (public routes), or with a bearer token obtained elsewhere. */
export function createDialysisClient(options: ConnectOptions & { accessToken?: string }): DialysisClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const token = options.accessToken;
  if (token) client.use(bearer(() => token));
  return client;
}

function bearer(token: () => string | Promise<string>): Middleware {
  return {
    async onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${await token()}`);
      return request;
    },
  };
}

/** A sign-in step the service refused: the step, its status and the problem (or RFC 6749 error) it answered. */
export class SignInError extends Error {
  constructor(
    readonly step: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${step} answered ${status} ${describe(body)}`);
    this.name = 'SignInError';
  }
}

function describe(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const b = body as Record<string, unknown>;
  if (typeof b.error === 'string') return `${b.error}${typeof b.error_description === 'string' ? `: ${b.error_description}` : ''}`;
  return [b.type, b.detail].filter((v) => typeof v === 'string').join(': ');
}

type Tenant = components['schemas']['TenantsResponseItemsItem'];

export interface TotpSignInOptions extends ConnectOptions {
  email: string;
  password: string;
  /** The account's TOTP secret (Base32), for programs that hold one; or `code` for a code typed by a person. */
  totpSecret?: string;
  code?: string;
  /** The company to work in; by default the only one the account belongs to (an error when it has several). */
  companyId?: string;
  /** The clock the code is computed for (the current time by default). */
  now?: () => Date;
}

export interface TotpSession {
  /** Sends the access token; it lives 15 min (POST /auth/refresh with `refreshToken` renews it). */
  client: DialysisClient;
  company: { id: string; name: string };
  roles: string[];
  permissions: string[];
  /** The companies the account belongs to. */
  companies: Tenant[];
  accessToken: string;
  refreshToken: string;
}

/** POST /auth/login -> POST /auth/verify-2fa -> GET /tenants -> POST /tenants/{id}/select. */
export async function signInWithTotp(options: TotpSignInOptions): Promise<TotpSession> {
  const anonymous = createDialysisClient(options);
  const login = await anonymous.POST('/auth/login', { body: { email: options.email, password: options.password } });
  if (!login.data) throw new SignInError('POST /auth/login', login.response.status, login.error);
  const code = options.code ?? (await totpCode(options));
  const verified = await anonymous.POST('/auth/verify-2fa', { body: { challenge: login.data.challenge, code } });
  if (!verified.data) throw new SignInError('POST /auth/verify-2fa', verified.response.status, verified.error);
  const { accessToken, refreshToken } = verified.data;
  const client = createDialysisClient({ ...options, accessToken });
  const tenants = await client.GET('/tenants');
  if (!tenants.data) throw new SignInError('GET /tenants', tenants.response.status, tenants.error);
  const companies = tenants.data.items;
  const companyId = options.companyId ?? onlyCompany(companies);
  const selected = await client.POST('/tenants/{id}/select', { params: { path: { id: companyId } } });
  if (!selected.data) throw new SignInError(`POST /tenants/${companyId}/select`, selected.response.status, selected.error);
  const { company, roles, permissions } = selected.data;
  return { client, company, roles, permissions, companies, accessToken, refreshToken };
}

async function totpCode(options: TotpSignInOptions): Promise<string> {
  if (!options.totpSecret) throw new Error('signInWithTotp needs totpSecret or code');
  const now = options.now?.() ?? new Date();
  return generate({ secret: options.totpSecret, epoch: Math.floor(now.getTime() / 1000) });
}

function onlyCompany(companies: Tenant[]): string {
  const [only, ...more] = companies;
  if (!only) throw new Error('The account belongs to no company');
  if (more.length > 0) throw new Error(`The account belongs to ${companies.length} companies: pass companyId`);
  return only.id;
}

export interface ClientCredentialsOptions extends ConnectOptions {
  clientId: string;
  clientSecret: string;
  /** The clock that decides when the token is renewed (the current time by default). */
  now?: () => Date;
}

/**
 * An API client (/integraciones) signs in with OAuth 2.0 client credentials (POST /auth/token, RFC 6749 4.4). The
 * token is bound to the client's company and lives 10 min: the client asks for a new one shortly before it expires.
 */
export async function signInWithClientCredentials(options: ClientCredentialsOptions): Promise<DialysisClient> {
  const anonymous = createDialysisClient(options);
  const now = (): number => (options.now?.() ?? new Date()).getTime();
  const issue = async (): Promise<{ token: string; renewAt: number }> => {
    const answer = await anonymous.POST('/auth/token', {
      body: { grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret },
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    if (!answer.data) throw new SignInError('POST /auth/token', answer.response.status, answer.error);
    return { token: answer.data.access_token, renewAt: now() + Math.max(0, answer.data.expires_in - 30) * 1000 };
  };
  let current = await issue();
  let renewing: Promise<{ token: string; renewAt: number }> | undefined; // one renewal for concurrent requests
  const client = createDialysisClient(options);
  client.use(
    bearer(async () => {
      if (now() >= current.renewAt) current = await (renewing ??= issue().finally(() => (renewing = undefined)));
      return current.token;
    }),
  );
  return client;
}
