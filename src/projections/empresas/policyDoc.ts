// The company policy read model: one document per company (id = tenant id), folded from the policy stream.
import type { PolicyEvent } from '../../commands/empresas/policyEvents.js';
import { withDefaultsForNewSettings, type CompanyPolicy } from '../../commands/empresas/shared/policySettings.js';

import type { RecordedEvent } from '../../stores/eventStore.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import type { ProjectedDoc } from '../runner/projection.js';

export interface PolicyDoc extends ProjectedDoc {
  /** Revision of the policy stream: the ETag. */
  revision: number;
  settings: CompanyPolicy;
  updatedAt: string;
  updatedBy: string;
}

/** Pure fold shared by the projection and the read-your-writes fallback. */
export function foldPolicy(doc: PolicyDoc | null, event: RecordedEvent): PolicyDoc {
  const e = event as unknown as PolicyEvent;
  const tenantId = tenantOfStream(event.streamName);
  return {
    tenantId,
    id: doc?.id ?? tenantId,
    revision: event.revision,
    settings: withDefaultsForNewSettings(e.data.settings),
    updatedAt: event.metadata.occurredAt,
    updatedBy: event.metadata.actor,
    _position: Number(event.position),
  };
}
