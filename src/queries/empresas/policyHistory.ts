// The policy's history: each recorded change with who/when/why, the fields it changed with their values before and
// after, and the revision it produced and the one it replaced (-1: the defaults).
import { valueAtPointer } from '../../jsonPointer.js';
import { DEFAULT_POLICY, type CompanyPolicy } from '../../commands/empresas/shared/policySettings.js';
import type { TenantScope } from '../tenantScope.js';
import { historyStamp, streamHistory } from './streamHistory.js';
import { POLICY_CATEGORY } from '../../commands/empresas/policyEvents.js';

export interface PolicyHistoryEntry extends ReturnType<typeof historyStamp> {
  policyRevision: number;
  changes: { path: string; from: unknown; to: unknown }[];
}

export async function policyHistory(
  scope: TenantScope,
  limit: number,
  cursor?: string,
  updatedSince?: string,
): Promise<{ items: PolicyHistoryEntry[]; nextCursor: string | null }> {
  const tenantId = scope.auth.tenantId;
  const page = await streamHistory(scope, POLICY_CATEGORY, tenantId, limit, cursor, 0, updatedSince);
  // The values before the first entry of the page: the event just before it (or the defaults).
  const first = page.events[0];
  const before =
    first && first.revision > 0
      ? (await streamHistory(scope, POLICY_CATEGORY, tenantId, 1, undefined, first.revision - 1)).events[0]
      : undefined;
  let previous = (before?.data.settings as CompanyPolicy | undefined) ?? DEFAULT_POLICY;
  const items = page.events.map((e) => {
    const data = e.data as { settings: CompanyPolicy; changed?: string[]; policyRevision: number };
    const changes = (data.changed ?? []).map((path) => ({
      path,
      from: valueAtPointer(previous, path) ?? null,
      to: valueAtPointer(data.settings, path) ?? null,
    }));
    previous = data.settings;
    return { ...historyStamp(e), policyRevision: data.policyRevision, changes };
  });
  return { items, nextCursor: page.nextCursor };
}
