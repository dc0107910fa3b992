// The guards that keep a machine's code and its serial unique within the company (claims, uniqueClaim.ts).
import { loadAggregate } from '../handleCommand.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import type { UniqueGuard } from '../uniqueClaimWrites.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { machineDecider } from './machineDecider.js';
import { machineValueKey, type MachineFields } from './machineEvents.js';

const guardOf = (field: 'code' | 'serial', category: string, code: string, message: string): UniqueGuard => ({
  decider: uniqueClaimDecider(category, code, message),
  duplicateCode: code,
  holderCategory: machineDecider.category,
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events: EventStore, tenantId: string, holderId: string) {
    const { state } = await loadAggregate(events, machineDecider, streamName(tenantId, machineDecider.category, holderId));
    return state.fields ? machineValueKey(state.fields[field]) : null;
  },
});

export const MACHINE_GUARDS: Record<'code' | 'serial', UniqueGuard> = {
  code: guardOf('code', 'machineCode', 'duplicate-code', 'another machine of this company already has this code'),
  serial: guardOf('serial', 'machineSerial', 'duplicate-serial', 'another machine of this company already has this serial number'),
};

export const UNIQUE_MACHINE_FIELDS = ['code', 'serial'] as const;

export const claimsOf = (machineId: string, fields: Pick<MachineFields, 'code' | 'serial'>) =>
  UNIQUE_MACHINE_FIELDS.map((field) => ({
    guard: MACHINE_GUARDS[field],
    claim: { holderId: machineId, key: machineValueKey(fields[field]) },
  }));
