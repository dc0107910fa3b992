// The audit record of a company export: who took the company's data out, when, why and which positions it covered.
import { streamName } from '../../stores/streamNames.js';

export const COMPANY_EXPORT_CATEGORY = 'companyExport';
export const COMPANY_EXPORTED = 'CompanyExported';

export interface CompanyExportedData {
  exportId: string;
  /** The export covers the company's events after this position (decimal string; '0': from the start) up to this event. */
  after: string;
}

export const companyExportStream = (tenantId: string, exportId: string): string => streamName(tenantId, COMPANY_EXPORT_CATEGORY, exportId);
