// A payer as its history leaves it: fields, status and contracts. `evolve` never throws (history is fact).
import type { ClientEvent, ClientFields, ClientPatch, ClientStatus, Contract } from '../clientEvents.js';

export interface ClientState {
  exists: boolean;
  fields: ClientFields | null;
  status: ClientStatus;
  statusReason: string | null;
  contracts: Contract[];
}

export const initialClientState: ClientState = { exists: false, fields: null, status: 'active', statusReason: null, contracts: [] };

export function applyClientPatch(current: ClientFields, patch: ClientPatch): ClientFields {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as unknown as ClientFields;
}

export function evolveClient(state: ClientState, event: ClientEvent): ClientState {
  switch (event.type) {
    case 'ClientRegistered': {
      const { clientId: _id, ...fields } = event.data;
      return { ...initialClientState, exists: true, fields };
    }
    case 'ClientCorrected':
      return state.fields ? { ...state, fields: applyClientPatch(state.fields, event.data.changes) } : state;
    case 'ClientDeactivated':
      return { ...state, status: 'inactive', statusReason: event.data.reason };
    case 'ClientReactivated':
      return { ...state, status: 'active', statusReason: event.data.reason };
    case 'ContractSigned':
      return { ...state, contracts: [...state.contracts, { ...event.data }] };
    case 'ContractTerminated': {
      const { contractId, endsOn, reason } = event.data;
      const contracts = state.contracts.map((c) =>
        c.contractId === contractId ? { ...c, terminatedOn: endsOn, terminationReason: reason } : c,
      );
      return { ...state, contracts };
    }
  }
}
