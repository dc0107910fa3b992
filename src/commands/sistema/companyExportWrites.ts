// Records a company export in the company's own log, so its audit trail shows who exported the company (HTTP and CLI).
import { newId } from '../eventIds.js';
import type { EventStore } from '../../stores/eventStore.js';
import { COMPANY_EXPORTED, companyExportStream, type CompanyExportedData } from './companyExportEvents.js';

export interface ExportCaller {
  actor: string;
  sessionId?: string | null;
  correlationId: string;
  ip?: string | null;
  userAgent?: string | null;
  reason?: string | null;
}

export async function recordCompanyExported(
  events: EventStore,
  tenantId: string,
  data: CompanyExportedData,
  caller: ExportCaller,
  at: Date,
): Promise<bigint> {
  const metadata = {
    tenantId,
    actor: caller.actor,
    sessionId: caller.sessionId ?? null,
    correlationId: caller.correlationId,
    causationId: null,
    commandId: newId(),
    occurredAt: at.toISOString(),
    ip: caller.ip ?? null,
    userAgent: caller.userAgent ?? null,
    reason: caller.reason ?? 'company export',
  };
  const event = { id: newId(), type: COMPANY_EXPORTED, data: { ...data }, metadata };
  const result = await events.appendToStream(companyExportStream(tenantId, data.exportId), [event], { expectedRevision: 'no_stream' });
  return result.position;
}
