// Read model of the dialysis sessions: one document per session, for the day board, a patient's sessions and the sheet.
import { SESSION_EVENT_TYPES, SESSION_CATEGORY } from '../../commands/dialisis/session/sessionEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { aggregateIdOfStream, categoryOfStream, tenantOfStream } from '../../stores/eventStore.js';
import { CONSEQUENCE_EVENT_TYPES, foldSession, type SessionDoc } from './sessionDoc.js';
import { SESSION_CONSEQUENCES_CATEGORY } from '../../commands/dialisis/consequences/consequenceEvents.js';

export const SESSIONS_PROJECTION = 'dialisis-sessions';
export const SESSIONS = 'sessions';
const SESSION_CATEGORIES = new Set([SESSION_CATEGORY, SESSION_CONSEQUENCES_CATEGORY]);

export const sessionsProjection: Projection = {
  name: SESSIONS_PROJECTION,
  version: 2,
  collections: {
    [SESSIONS]: [
      { keys: { tenantId: 1, date: 1, locationId: 1, shiftId: 1, id: 1 }, name: 'by_day' },
      { keys: { tenantId: 1, patientId: 1, date: -1, id: 1 }, name: 'by_patient' },
    ],
  },
  eventTypes: [...SESSION_EVENT_TYPES, ...CONSEQUENCE_EVENT_TYPES],
  handle(event, tx) {
    // Sign-in sessions also have a SessionStarted: only the dialysis session and consequence streams count here.
    if (!SESSION_CATEGORIES.has(categoryOfStream(event.streamName))) return;
    return applyFold<SessionDoc>(tx, SESSIONS, tenantOfStream(event.streamName), aggregateIdOfStream(event.streamName), event, foldSession);
  },
};
