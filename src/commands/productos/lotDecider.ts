// The company-wide record of a lot (stream `<tenant>.stockLot-<id of (product, lot)>`): a lot is one manufacturer's
// batch, so it has one expiry in every warehouse. Stock lives in per-warehouse streams; the first movement that brings a
// lot in records its expiry here (a reservation, architecture.md), and a different one is refused from then on.
import type { CommandEnvelope, DecidedEvent, Decider } from '../decider.js';
import { rule } from '../decider.js';
import { uuidV5 } from '../eventIds.js';

export type LotCommand = CommandEnvelope<
  'RecordLotExpiry',
  { productId: string; lot: string; expiry: string | null; movementId: string; field: string }
>;
export type LotEvent = DecidedEvent<'LotExpiryRecorded', { productId: string; lot: string; expiry: string | null; movementId: string }>;

/** The recorded expiry (null: a lot of a product without expiry), or undefined while no movement brought the lot in. */
export interface LotState {
  expiry: string | null | undefined;
}

/** Stream id of a product's lot: lot numbers are free text, so the id is derived from them. */
export const lotRegistryId = (productId: string, lot: string): string => uuidV5(`stock-lot\u0000${productId}\u0000${lot}`);

/** The lot already has another expiry (409 naming the field that stated it). */
export const lotExpiryConflict = (lot: string | null, expiry: string | null, field = 'expiry'): Error =>
  rule('lot-expiry-conflict', `lot ${lot} of this product expires on ${expiry ?? 'no date'}: one lot has one expiry in every warehouse`, {
    lot,
    expiry,
    errors: [{ field, message: `lot ${lot} expires on ${expiry ?? 'no date'}` }],
  });

export const lotDecider: Decider<LotCommand, LotEvent, LotState> = {
  category: 'stockLot',
  initialState: { expiry: undefined },
  evolve: (_state, event) => ({ expiry: event.data.expiry }),
  decide(command, state) {
    const { productId, lot, expiry, movementId, field } = command.data;
    if (state.expiry === undefined) return [{ type: 'LotExpiryRecorded', data: { productId, lot, expiry, movementId } }];
    if (state.expiry !== expiry) throw lotExpiryConflict(lot, state.expiry, field);
    return [];
  },
};
