// API clients by id (authenticate reads one per request of a program) and by company (GET /integraciones).
import { applyTo, type Projection } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { API_CLIENT_EVENT_TYPES, type ApiClientEvent } from '../../commands/platform/apiClient/events.js';
import { aggregateIdOf, API_CLIENTS, type ApiClientDoc } from './platformReadModels.js';

type Fold = Omit<ApiClientDoc, '_position'>;

/** The client an event of its stream leaves (the projection's fold; also a read of the client as it was). */
export function foldApiClient(doc: Fold | null, event: RecordedEvent): Fold | null {
  const e = { type: event.type, data: event.data } as ApiClientEvent;
  const at = event.metadata.occurredAt;
  if (e.type === 'ApiClientCreated') {
    return {
      tenantId: PLATFORM_DOCS,
      id: e.data.clientId,
      companyId: e.data.companyId,
      name: e.data.name,
      roles: e.data.roles,
      status: 'active',
      createdAt: at,
      createdBy: event.metadata.actor,
      secretRotatedAt: null,
      previousSecretValidUntil: null,
      lastTokenAt: null,
      revokedAt: null,
    };
  }
  if (!doc) return null;
  switch (e.type) {
    case 'ApiClientSecretRotated':
      return { ...doc, secretRotatedAt: at, previousSecretValidUntil: e.data.previousValidUntil };
    case 'ApiClientRolesChanged':
      return { ...doc, roles: e.data.roles };
    case 'ApiClientRevoked':
      return { ...doc, status: 'revoked', revokedAt: e.data.at };
    case 'ApiClientTokenIssued':
      return { ...doc, lastTokenAt: at };
    default:
      return doc;
  }
}

export const apiClientsProjection: Projection = {
  name: API_CLIENTS.projection,
  version: 1,
  collections: { [API_CLIENTS.collection]: [{ keys: { companyId: 1 }, name: 'by_company' }] },
  eventTypes: API_CLIENT_EVENT_TYPES,
  async handle(event, tx) {
    await applyTo<ApiClientDoc>(tx, API_CLIENTS.collection, PLATFORM_DOCS, aggregateIdOf(event), event, (doc) => foldApiClient(doc, event));
  },
};
