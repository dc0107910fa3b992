// Supply kits (issue 11 item 3): what a session consumes by default, from which warehouse. One stream per kit,
// `<tenant>.supplyKit-<id>`: the id is the patient's, or `company-default` for the kit of patients without their own.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the supply kit streams: written once, here (the decider, the writes and the read side take it). */
export const SUPPLY_KIT_CATEGORY = 'supplyKit';
export const kitStream = (tenantId: string, kitId: string): string => streamName(tenantId, SUPPLY_KIT_CATEGORY, kitId);
export const COMPANY_DEFAULT_KIT = 'company-default';

export type KitItem = { productId: string; quantity: number };
export type KitFields = { warehouseId: string; items: KitItem[] };

/** What the write found for the decider: the warehouse, and each product named (absent key: not of this company). */
export type KitFacts = { warehouseExists: boolean; products: Record<string, { active: boolean }> };

export type SupplyKitCommand =
  CommandEnvelope<'SetSupplyKit', KitFields & { facts: KitFacts }> | CommandEnvelope<'RemoveSupplyKit', Record<string, never>>;

export type SupplyKitEvent =
  DecidedEvent<'SupplyKitSet', KitFields & { kitId: string }> | DecidedEvent<'SupplyKitRemoved', { kitId: string }>;

export const SUPPLY_KIT_EVENT_TYPES: readonly SupplyKitEvent['type'][] = ['SupplyKitSet', 'SupplyKitRemoved'];
