// What the schedule deciders need to know about other records, read from their own streams (never a read model that
// may lag): the location of a shift, the patient of a plan or session, the shift itself, the requesting physician.
import { loadAggregate } from '../../handleCommand.js';
import { locationDecider } from '../../empresas/locationDecider.js';
import { patientDecider } from '../../pacientes/patientDecider.js';
import { staffDecider } from '../../colaboradores/staffDecider.js';
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import type { LocationFacts } from './shiftEvents.js';
import { shiftDecider, type ShiftState } from './shiftDecider.js';

export async function locationFacts(events: EventStore, tenantId: string, locationId: string): Promise<LocationFacts> {
  const { state } = await loadAggregate(events, locationDecider, streamName(tenantId, locationDecider.category, locationId));
  return { exists: state.exists, open: state.status === 'open' };
}

export async function patientFacts(events: EventStore, tenantId: string, patientId: string): Promise<{ exists: boolean; status: string }> {
  const { state } = await loadAggregate(events, patientDecider, streamName(tenantId, patientDecider.category, patientId));
  return { exists: state.exists, status: state.exists ? state.status : 'absent' };
}

export async function shiftOf(events: EventStore, tenantId: string, shiftId: string): Promise<{ state: ShiftState; revision: number }> {
  return loadAggregate(events, shiftDecider, streamName(tenantId, shiftDecider.category, shiftId));
}

/** The requesting staff member is a collaborator of this company, not terminated. */
export async function staffFacts(events: EventStore, tenantId: string, staffId: string): Promise<{ exists: boolean; active: boolean }> {
  const { state } = await loadAggregate(events, staffDecider, streamName(tenantId, staffDecider.category, staffId));
  return { exists: state.exists, active: state.exists && state.status !== 'terminated' };
}
