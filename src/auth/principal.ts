// Who is calling: what authentication established from a bearer token and its server-side session.

export interface Principal {
  userId: string;
  sessionId: string;
  email: string;
  /** Company selected on the session, or null before POST /tenants/{id}/select. */
  tenantId: string | null;
  /** Permissions of the user in the selected company (empty before selection). */
  permissions: ReadonlySet<string>;
  platformAdmin: boolean;
  /** The selected company's status and optional modules switched on (null before selection). */
  company: { status: 'active' | 'suspended'; modules: readonly string[] } | null;
  /** Set when a program (an API client) calls: its id; userId is then `client:<id>`. */
  clientId?: string;
}
