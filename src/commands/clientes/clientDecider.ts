// Every rule about a payer and its contracts. Pure: time and ids come in with the command.
import { fieldChanges } from '../shared/fieldChanges.js';
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks, isRealDate } from '../shared/fieldChecks.js';
import { CORRECTABLE_CLIENT_FIELDS, type ClientCommand, type ClientEvent, CLIENT_CATEGORY } from './clientEvents.js';
import { applyClientPatch, evolveClient, initialClientState, type ClientState } from './shared/clientState.js';
import { checkedClient, checkedContractTerms } from './clientRules.js';
import { lastDayOf, overlapping } from './shared/contractRules.js';

/** Contracts of one client stay few (one per service and period): the document that holds them stays bounded. */
export const MAX_CONTRACTS_PER_CLIENT = 200;

type Existing = ClientState & { fields: NonNullable<ClientState['fields']> };

function existing(state: ClientState): Existing {
  if (!state.exists || !state.fields) throw notFound('client');
  return state as Existing;
}

function decideCorrection(command: Extract<ClientCommand, { type: 'CorrectClient' }>, state: ClientState): ClientEvent[] {
  const current = existing(state).fields;
  // The whole client the correction would leave is checked, so a new country re-checks the kept tax id too.
  const checked = checkedClient(applyClientPatch(current, command.data));
  const asked: Record<string, unknown> = {};
  for (const field of CORRECTABLE_CLIENT_FIELDS) {
    if (command.data[field] !== undefined) asked[field] = command.data[field] === null ? null : checked[field];
  }
  const diff = fieldChanges(current, asked, CORRECTABLE_CLIENT_FIELDS);
  if (!diff) return [];
  return [{ type: 'ClientCorrected', data: { changes: diff.changes, previous: diff.previous } }];
}

function decideContract(command: Extract<ClientCommand, { type: 'SignContract' | 'TerminateContract' }>, state: Existing): ClientEvent[] {
  if (command.type === 'TerminateContract') {
    const { contractId, endsOn } = command.data;
    const contract = state.contracts.find((c) => c.contractId === contractId);
    if (!contract) throw notFound('contract');
    if (contract.terminatedOn !== undefined) throw rule('contract-terminated', 'the contract is already terminated');
    const checks = new FieldChecks().check(isRealDate(endsOn), 'endsOn', 'is not a real date');
    const last = lastDayOf(contract);
    checks.check(last === null || endsOn < last, 'endsOn', `must be before the contract's last day (${last}): an early termination`);
    checks.check(command.data.reason.trim().length > 0, 'reason', 'must not be blank').throwIfAny();
    return [{ type: 'ContractTerminated', data: { contractId, endsOn, reason: command.data.reason.trim() } }];
  }
  if (state.status !== 'active') throw rule('client-inactive', 'the client is inactive: it signs no contract');
  const { contractId, ...asked } = command.data;
  if (state.contracts.some((c) => c.contractId === contractId))
    throw new DomainError('already-exists', 'this contract already exists', 409);
  if (state.contracts.length >= MAX_CONTRACTS_PER_CLIENT) {
    throw rule('too-many-contracts', `a client holds at most ${MAX_CONTRACTS_PER_CLIENT} contracts`);
  }
  const terms = checkedContractTerms(asked);
  const numberKey = terms.number.toUpperCase();
  if (state.contracts.some((c) => c.number.toUpperCase() === numberKey)) {
    throw rule('duplicate-contract-number', 'another contract of this client has this number');
  }
  const clash = overlapping(state.contracts, terms.serviceCode, terms.validFrom, terms.validTo ?? null)[0];
  if (clash) {
    throw rule('contract-overlap', `contract ${clash.number} already covers service ${terms.serviceCode} on part of this period`, {
      existingContractId: clash.contractId,
    });
  }
  return [{ type: 'ContractSigned', data: { contractId, ...terms } }];
}

function decideStatus(command: Extract<ClientCommand, { type: 'DeactivateClient' | 'ReactivateClient' }>, state: Existing): ClientEvent[] {
  const reason = command.data.reason.trim();
  new FieldChecks().check(reason.length > 0, 'reason', 'must not be blank').throwIfAny();
  if (command.type === 'DeactivateClient') {
    if (state.status === 'inactive') throw rule('client-inactive', 'the client is already inactive');
    return [{ type: 'ClientDeactivated', data: { reason } }];
  }
  if (state.status === 'active') throw rule('client-active', 'the client is already active');
  return [{ type: 'ClientReactivated', data: { reason } }];
}

export function decideClient(command: ClientCommand, state: ClientState): ClientEvent[] {
  switch (command.type) {
    case 'RegisterClient':
      if (state.exists) throw new DomainError('already-exists', 'this client already exists', 409);
      return [{ type: 'ClientRegistered', data: { clientId: command.aggregateId, ...checkedClient(command.data) } }];
    case 'CorrectClient':
      return decideCorrection(command, state);
    case 'DeactivateClient':
    case 'ReactivateClient':
      return decideStatus(command, existing(state));
    case 'SignContract':
    case 'TerminateContract':
      return decideContract(command, existing(state));
  }
}

export const clientDecider: Decider<ClientCommand, ClientEvent, ClientState> = {
  category: CLIENT_CATEGORY,
  initialState: initialClientState,
  evolve: evolveClient,
  decide: decideClient,
};
