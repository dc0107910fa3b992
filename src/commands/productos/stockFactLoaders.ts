// What stock movements take from read models, declared by the write side and implemented in src/facts/productos/.
/** What a stock movement reads from read models; the product's and the lot's streams are folded by the write side. */
export interface StockFactLoaders {
  /**
   * Read from the stock balances model (eventual): the earliest expiry any warehouse holds of a lot held before lots
   * were recorded company-wide (null when none), so its first recorded expiry follows what is held.
   */
  earliestHeldExpiry(tenantId: string, productId: string, lot: string): Promise<string | null>;
}
