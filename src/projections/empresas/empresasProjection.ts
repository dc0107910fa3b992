// Read models of the Empresas group's tenant side: the company policy and the locations (sedes).
import { LOCATION_EVENT_TYPES, LOCATION_CATEGORY } from '../../commands/empresas/locationEvents.js';
import { POLICY_CATEGORY, POLICY_EVENT_TYPES } from '../../commands/empresas/policyEvents.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { foldLocation, type LocationDoc } from './locationDoc.js';
import { foldPolicy, type PolicyDoc } from './policyDoc.js';

export const EMPRESAS_PROJECTION = 'empresas';
export const COMPANY_POLICIES = 'companyPolicies';
export const LOCATIONS = 'locations';

/** Category of a stream `<tenant>.<category>-<id>`: other groups may reuse an event type name, never our categories. */
const categoryOf = (stream: string): string => stream.slice(stream.indexOf('.') + 1, stream.indexOf('-'));
const idOf = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

export const empresasProjection: Projection = {
  name: EMPRESAS_PROJECTION,
  version: 1,
  collections: {
    // One document per company, read by id only.
    [COMPANY_POLICIES]: [],
    [LOCATIONS]: [
      { keys: { tenantId: 1, sortName: 1, id: 1 }, name: 'by_name' },
      { keys: { tenantId: 1, status: 1, sortName: 1, id: 1 }, name: 'by_status_name' },
    ],
  },
  eventTypes: [...POLICY_EVENT_TYPES, ...LOCATION_EVENT_TYPES],
  handle(event, tx) {
    const category = categoryOf(event.streamName);
    const tenantId = tenantOfStream(event.streamName);
    if (category === POLICY_CATEGORY)
      return applyFold<PolicyDoc>(tx, COMPANY_POLICIES, tenantId, idOf(event.streamName), event, foldPolicy);
    if (category === LOCATION_CATEGORY) return applyFold<LocationDoc>(tx, LOCATIONS, tenantId, idOf(event.streamName), event, foldLocation);
  },
};
