// Session ids derive from what makes a session unique, so "one session per patient, date and shift" holds by construction.
import { uuidV5 } from '../../eventIds.js';

/** The one session of this patient on this date in this shift (UUIDv5 of the four). */
export const sessionIdFor = (tenantId: string, patientId: string, date: string, shiftId: string): string =>
  uuidV5(`dialysisSession\u0000${tenantId}\u0000${patientId}\u0000${date}\u0000${shiftId}`);
