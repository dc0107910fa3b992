// Read model of the FiltrosDialisis group: the company's dialyzers.
import { DIALYZER_EVENT_TYPES } from '../../commands/filtros-dialisis/dialyzerEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { foldDialyzer, idOfStream, type DialyzerDoc } from './dialyzerDoc.js';

export const FILTROS_PROJECTION = 'filtrosDialisis';
export const DIALYZERS = 'dialyzers';

export const filtrosProjection: Projection = {
  name: FILTROS_PROJECTION,
  version: 1,
  collections: {
    [DIALYZERS]: [
      { keys: { tenantId: 1, serialKey: 1, id: 1 }, name: 'by_serial' },
      { keys: { tenantId: 1, patientId: 1, serialKey: 1, id: 1 }, name: 'by_patient_serial' },
      { keys: { tenantId: 1, status: 1, serialKey: 1, id: 1 }, name: 'by_status_serial' },
    ],
  },
  eventTypes: DIALYZER_EVENT_TYPES,
  handle(event, tx) {
    return applyFold<DialyzerDoc>(tx, DIALYZERS, tenantOfStream(event.streamName), idOfStream(event.streamName), event, foldDialyzer);
  },
};
