// Read model of the patients' dialysis prescriptions: every version with its effective period and successor.
import { PRESCRIPTION_EVENT_TYPES } from '../../commands/dialisis/prescription/prescriptionEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream } from '../../stores/eventStore.js';
import { foldsOf, prescriptionDocId, type PrescriptionDoc } from './prescriptionsDoc.js';

export const PRESCRIPTIONS_PROJECTION = 'dialisisPrescriptions';
export const PRESCRIPTION_VERSIONS = 'prescriptionVersions';

export const prescriptionsProjection: Projection = {
  name: PRESCRIPTIONS_PROJECTION,
  version: 1,
  collections: {
    [PRESCRIPTION_VERSIONS]: [{ keys: { tenantId: 1, patientId: 1, version: -1 }, name: 'by_patient_version' }],
  },
  eventTypes: PRESCRIPTION_EVENT_TYPES,
  async handle(recorded, tx) {
    const tenantId = tenantOfStream(recorded.streamName);
    const patientId = aggregateIdOfStream(recorded.streamName);
    for (const { version, fold } of foldsOf(recorded)) {
      await applyFold<PrescriptionDoc>(tx, PRESCRIPTION_VERSIONS, tenantId, prescriptionDocId(patientId, version), recorded, fold);
    }
  },
};
