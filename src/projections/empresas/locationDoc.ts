// The location read model: one document per location (sede) with its rooms and stations (bounded by
// LIMITS.locations), folded from its stream. The fold is pure: the projection and the read-your-writes
// fallback build the same document.
import type { LocationAddress, LocationEvent, RoomIsolation } from '../../commands/empresas/locationEvents.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import type { ProjectedDoc } from '../runner/projection.js';

export interface RoomEntry {
  roomId: string;
  name: string;
  isolation: RoomIsolation;
}

export interface StationEntry {
  stationId: string;
  code: string;
  roomId: string;
  status: 'active' | 'inactive';
  /** Why it was last deactivated or reactivated. */
  statusReason: string | null;
}

export interface LocationDoc extends ProjectedDoc {
  revision: number;
  name: string;
  address: LocationAddress | null;
  registryCode: string | null;
  status: 'open' | 'closed';
  closedReason: string | null;
  rooms: RoomEntry[];
  stations: StationEntry[];
  createdAt: string;
  updatedAt: string;
  /** Internal: the name as lists sort it (case and accents ignored). */
  sortName: string;
}

export const sortNameOf = (name: string): string => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

function applyEvent(doc: LocationDoc, e: LocationEvent): LocationDoc {
  switch (e.type) {
    case 'LocationOpened':
      return doc;
    case 'LocationCorrected': {
      const next = { ...doc, ...e.data.changes };
      return { ...next, sortName: sortNameOf(next.name) };
    }
    case 'LocationClosed':
      return { ...doc, status: 'closed', closedReason: e.data.reason };
    case 'RoomAdded':
      return { ...doc, rooms: [...doc.rooms, { ...e.data }] };
    case 'RoomRenamed':
      return { ...doc, rooms: doc.rooms.map((r) => (r.roomId === e.data.roomId ? { ...r, name: e.data.name } : r)) };
    case 'StationAdded':
      return { ...doc, stations: [...doc.stations, { ...e.data, status: 'active', statusReason: null }] };
    case 'StationDeactivated':
    case 'StationReactivated': {
      const status: StationEntry['status'] = e.type === 'StationDeactivated' ? 'inactive' : 'active';
      const stations = doc.stations.map((s) => (s.stationId === e.data.stationId ? { ...s, status, statusReason: e.data.reason } : s));
      return { ...doc, stations };
    }
  }
}

/** Folds one event of a location stream; null before the location was opened (nothing to show). */
export function foldLocation(doc: LocationDoc | null, event: RecordedEvent): LocationDoc | null {
  const e = event as unknown as LocationEvent;
  const stamp = { revision: event.revision, updatedAt: event.metadata.occurredAt, _position: Number(event.position) };
  if (e.type === 'LocationOpened') {
    return {
      tenantId: tenantOfStream(event.streamName),
      id: idOfStream(event.streamName),
      name: e.data.name,
      address: e.data.address,
      registryCode: e.data.registryCode,
      status: 'open',
      closedReason: null,
      rooms: [],
      stations: [],
      createdAt: event.metadata.occurredAt,
      sortName: sortNameOf(e.data.name),
      ...stamp,
    };
  }
  if (!doc) return null;
  return { ...applyEvent(doc, e), ...stamp };
}

/** The location as the API shows it: without the projection's bookkeeping. */
export function locationView(doc: LocationDoc): Record<string, unknown> {
  const { _position, _changedAt: _changed, tenantId: _tenant, sortName: _sort, ...view } = doc;
  return view;
}
