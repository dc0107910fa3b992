// The payer read model: one document per client with its contracts, the decider's own state folded from its stream
// (so the read side and the write side never disagree), plus who/when. Pure, shared by the projection and
// read-your-writes.
import { CORRECTABLE_CLIENT_FIELDS, type ClientEvent, type ClientFields } from '../../commands/clientes/clientEvents.js';
import { evolveClient, initialClientState, type ClientState } from '../../commands/clientes/shared/clientState.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type ClientDoc = ProjectedDoc &
  ClientFields &
  Omit<ClientState, 'exists' | 'fields'> & {
    /** Revision of the client stream: the ETag. */
    revision: number;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
    /** Internal: legal name as compared (sort key). */
    nameKey: string;
  };

/** The id of a stream `<tenant>.<category>-<id>`. */
export const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

export function clientStateOf(doc: ClientDoc): ClientState {
  const fields: Record<string, unknown> = {};
  // Every field of a client is correctable: the contract's list names them all.
  for (const name of CORRECTABLE_CLIENT_FIELDS) if (doc[name] !== undefined) fields[name] = doc[name];
  return {
    exists: true,
    fields: fields as ClientFields,
    status: doc.status,
    statusReason: doc.statusReason,
    contracts: doc.contracts,
  };
}

export function foldClient(doc: ClientDoc | null, recorded: RecordedEvent): ClientDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as ClientEvent;
  if (!doc && event.type !== 'ClientRegistered') return null;
  if (doc && event.type === 'ClientRegistered') return doc;
  const next = evolveClient(doc ? clientStateOf(doc) : initialClientState, event);
  if (!next.fields) return doc;
  const kept = doc ? { tenantId: doc.tenantId, id: doc.id, createdAt: doc.createdAt, createdBy: doc.createdBy } : null;
  return {
    ...(kept ?? {
      tenantId: tenantOfStream(recorded.streamName),
      id: idOfStream(recorded.streamName),
      createdAt: recorded.metadata.occurredAt,
      createdBy: recorded.metadata.actor,
    }),
    ...next.fields,
    status: next.status,
    statusReason: next.statusReason,
    contracts: next.contracts,
    nameKey: next.fields.legalName.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase(),
    revision: recorded.revision,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
}
