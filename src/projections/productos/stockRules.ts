// The stock rules the read side needs (FEFO order, expiry), handed over from the write model so a query and the
// decider never judge differently.
export { fefoLots, isExpired } from '../../commands/productos/stockState.js';
