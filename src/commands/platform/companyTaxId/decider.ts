// Reserves a company tax id (country + canonical number) for one company, forever: the platform registers a legal
// entity once.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { rule } from '../../decider.js';
import { uuidV5 } from '../../eventIds.js';

export type CompanyTaxIdEvent = { type: 'CompanyTaxIdReserved'; data: { country: string; number: string; companyId: string } };

export interface CompanyTaxIdState {
  companyId: string | null;
}

export type CompanyTaxIdCommand = CommandEnvelope<'ReserveCompanyTaxId', { country: string; number: string; companyId: string }>;

export const companyTaxIdGuardId = (country: string, number: string): string => uuidV5(`companyTaxId\u0000${country}\u0000${number}`);

export const companyTaxIdDecider: Decider<CompanyTaxIdCommand, CompanyTaxIdEvent, CompanyTaxIdState> = {
  category: 'companyTaxId',
  initialState: { companyId: null },
  evolve: (_s, e) => ({ companyId: e.data.companyId }),
  decide(cmd, s) {
    if (s.companyId === cmd.data.companyId) return []; // a retry of the same registration
    if (s.companyId !== null) throw rule('tax-id-taken', 'a company with this tax id is already registered', { companyId: s.companyId });
    return [{ type: 'CompanyTaxIdReserved', data: cmd.data }];
  },
};
