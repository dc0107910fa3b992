// Read model of the Generador group's definitions: every module of a company with its versions.
import { MODULE_EVENT_TYPES } from '../../commands/generador/module/moduleEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream } from '../../stores/eventStore.js';
import { foldModule, type ModuleDoc } from './moduleDoc.js';

export const MODULES_PROJECTION = 'generadorModules';
export const MODULES = 'modules';

export const modulesProjection: Projection = {
  name: MODULES_PROJECTION,
  version: 1,
  collections: { [MODULES]: [{ keys: { tenantId: 1, status: 1, id: 1 }, name: 'by_status_code' }] },
  eventTypes: MODULE_EVENT_TYPES,
  handle(event, tx) {
    return applyFold<ModuleDoc>(tx, MODULES, tenantOfStream(event.streamName), aggregateIdOfStream(event.streamName), event, foldModule);
  },
};
