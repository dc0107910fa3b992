// The first start: claimed by exactly one process (no_stream append), completed once everything exists.

export type BootstrapEvent =
  | { type: 'BootstrapClaimed'; data: { adminUserId: string; companyId: string; adminEmail: string; generatedCredentials: boolean } }
  | { type: 'BootstrapCompleted'; data: { adminUserId: string; companyId: string } };
