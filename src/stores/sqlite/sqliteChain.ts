// Reading the tenant hash chain from the SQLite event file (the batch writer stores each event's hash).
import type { ChainGenesis, ChainHead, ChainedEvent, ReadChainOptions } from '../eventStore.js';
import { assertValidRead } from '../eventMatching.js';
import { toChainedEvent, type Statements } from './sqliteStatements.js';

const DEFAULT_CHAIN_PAGE = 1000;

export function sqliteChainReads(st: Statements, onlyDurable: <T extends { position: bigint }>(events: T[]) => Promise<T[]>) {
  const counted = new Map<string, { position: number; count: number }>();
  function chainGenesis(tenant: string): ChainGenesis | null {
    const row = st.genesis.get(tenant);
    return row ? { tenant, fromPosition: BigInt(row.from_position) } : null;
  }
  return {
    chainGenesis: (tenant: string): Promise<ChainGenesis | null> => Promise.resolve(chainGenesis(tenant)),

    async readChain(tenant: string, options: ReadChainOptions = {}): Promise<ChainedEvent[]> {
      assertValidRead({ maxCount: options.maxCount });
      const genesis = chainGenesis(tenant);
      const limit = options.maxCount ?? DEFAULT_CHAIN_PAGE;
      if (genesis === null || limit === 0) return [];
      const start = genesis.fromPosition - 1n;
      const after = options.after !== undefined && options.after > start ? options.after : start;
      return onlyDurable(st.chainAfter.all(tenant, Number(after), limit).map(toChainedEvent));
    },

    async chainHead(tenant: string): Promise<ChainHead | null> {
      const genesis = chainGenesis(tenant);
      const last = st.chainLast.get(tenant);
      if (genesis === null || !last || last.hash === null) return null;
      const [head] = await onlyDurable([{ position: BigInt(last.position), hash: last.hash }]);
      // Counted once in full, then only the events since the last count: a large tenant's count stays cheap.
      const known = counted.get(tenant);
      const from = known && known.position <= last.position ? known.position + 1 : Number(genesis.fromPosition);
      const count = (known && known.position <= last.position ? known.count : 0) + st.chainCount.get(tenant, from, last.position)!.n;
      counted.set(tenant, { position: last.position, count });
      return { ...head!, count };
    },
  };
}
