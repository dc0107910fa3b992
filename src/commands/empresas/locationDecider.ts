// Every rule about a location, its rooms and its stations. Pure: ids and time come in with the command.
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import { LIMITS } from '../../limits.js';
import type { LocationCommand, LocationDetails, LocationEvent, LocationPatch, RoomIsolation } from './locationEvents.js';
import { LOCATION_CATEGORY } from './locationEvents.js';

export interface LocationState {
  exists: boolean;
  status: 'open' | 'closed';
  details: LocationDetails;
  rooms: Record<string, { name: string; isolation: RoomIsolation }>;
  stations: Record<string, { code: string; roomId: string; status: 'active' | 'inactive' }>;
}

export const initialLocationState: LocationState = {
  exists: false,
  status: 'open',
  details: { name: '', address: null, registryCode: null },
  rooms: {},
  stations: {},
};

/** Station codes and room names compare ignoring case and surrounding spaces: 'P-01' = ' p-01'. */
export const codeKey = (code: string): string => code.trim().normalize('NFKC').toUpperCase();

export function evolveLocation(state: LocationState, event: LocationEvent): LocationState {
  switch (event.type) {
    case 'LocationOpened': {
      const { name, address, registryCode } = event.data;
      return { ...initialLocationState, exists: true, details: { name, address, registryCode } };
    }
    case 'LocationCorrected':
      return { ...state, details: { ...state.details, ...event.data.changes } };
    case 'LocationClosed':
      return { ...state, status: 'closed' };
    case 'RoomAdded':
      return { ...state, rooms: { ...state.rooms, [event.data.roomId]: { name: event.data.name, isolation: event.data.isolation } } };
    case 'RoomRenamed': {
      const room = state.rooms[event.data.roomId];
      return room ? { ...state, rooms: { ...state.rooms, [event.data.roomId]: { ...room, name: event.data.name } } } : state;
    }
    case 'StationAdded': {
      const { stationId, code, roomId } = event.data;
      return { ...state, stations: { ...state.stations, [stationId]: { code, roomId, status: 'active' } } };
    }
    case 'StationDeactivated':
    case 'StationReactivated': {
      const station = state.stations[event.data.stationId];
      if (!station) return state;
      const status = event.type === 'StationDeactivated' ? 'inactive' : 'active';
      return { ...state, stations: { ...state.stations, [event.data.stationId]: { ...station, status } } };
    }
  }
}

function existing(state: LocationState): LocationState {
  if (!state.exists) throw notFound('location');
  return state;
}

/** A closed location takes no new rooms or stations, and no station comes back into service there. */
function open(state: LocationState): LocationState {
  if (existing(state).status === 'closed') throw rule('location-closed', 'the location is closed');
  return state;
}

function nonBlank(checks: FieldChecks, field: string, value: string | null | undefined): void {
  if (typeof value === 'string') checks.check(value.trim().length > 0, field, 'must not be blank');
}

function checkDetails(patch: LocationPatch & { reason?: string }): void {
  const checks = new FieldChecks();
  nonBlank(checks, 'name', patch.name);
  nonBlank(checks, 'registryCode', patch.registryCode);
  nonBlank(checks, 'address/line', patch.address?.line);
  nonBlank(checks, 'reason', patch.reason);
  checks.throwIfAny();
}

const trimmed = <T extends string | null | undefined>(value: T): T => (typeof value === 'string' ? (value.trim() as T) : value);

function decideCorrection(patch: LocationPatch, state: LocationState): LocationEvent[] {
  const current = existing(state).details;
  checkDetails(patch);
  const changes: LocationPatch = {};
  const previous: LocationPatch = {};
  for (const field of ['name', 'address', 'registryCode'] as const) {
    if (patch[field] === undefined) continue;
    const after = field === 'address' ? patch.address : trimmed(patch[field]);
    if (JSON.stringify(after) === JSON.stringify(current[field])) continue;
    Object.assign(changes, { [field]: after });
    Object.assign(previous, { [field]: current[field] });
  }
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'LocationCorrected', data: { changes, previous } }];
}

function roomNameTaken(state: LocationState, name: string, except?: string): boolean {
  return Object.entries(state.rooms).some(([id, room]) => id !== except && codeKey(room.name) === codeKey(name));
}

function station(state: LocationState, stationId: string) {
  const found = existing(state).stations[stationId];
  if (!found) throw notFound('station');
  return found;
}

export function decideLocation(command: LocationCommand, state: LocationState): LocationEvent[] {
  switch (command.type) {
    case 'OpenLocation': {
      if (state.exists) throw new DomainError('already-exists', 'this location already exists', 409);
      const { name, address = null, registryCode = null } = command.data;
      checkDetails({ name, address, registryCode });
      return [
        {
          type: 'LocationOpened',
          data: { locationId: command.aggregateId, name: name.trim(), address, registryCode: trimmed(registryCode) },
        },
      ];
    }
    case 'CorrectLocation':
      return decideCorrection(command.data, state);
    case 'CloseLocation': {
      open(state);
      checkDetails({ reason: command.data.reason });
      return [{ type: 'LocationClosed', data: { reason: command.data.reason.trim() } }];
    }
    case 'AddRoom': {
      const s = open(state);
      const { roomId, name, isolation = 'none' } = command.data;
      checkDetails({ name });
      if (s.rooms[roomId]) throw new DomainError('already-exists', 'a room with this id already exists', 409);
      if (Object.keys(s.rooms).length >= LIMITS.locations.maxRooms)
        throw rule('too-many-rooms', `a location has at most ${LIMITS.locations.maxRooms} rooms`);
      if (roomNameTaken(s, name)) throw rule('duplicate-room-name', `this location already has a room named '${name.trim()}'`);
      return [{ type: 'RoomAdded', data: { roomId, name: name.trim(), isolation } }];
    }
    case 'RenameRoom': {
      const s = existing(state);
      const { roomId, name } = command.data;
      const room = s.rooms[roomId];
      if (!room) throw notFound('room');
      checkDetails({ name });
      if (room.name === name.trim()) return [];
      if (roomNameTaken(s, name, roomId)) throw rule('duplicate-room-name', `this location already has a room named '${name.trim()}'`);
      return [{ type: 'RoomRenamed', data: { roomId, name: name.trim(), previousName: room.name } }];
    }
    case 'AddStation': {
      const s = open(state);
      const { stationId, code, roomId } = command.data;
      new FieldChecks().check(code.trim().length > 0, 'code', 'must not be blank').throwIfAny();
      if (!s.rooms[roomId])
        throw new DomainError('validation-failed', 'Invalid data: roomId: no such room in this location', 422, {
          errors: [{ field: 'roomId', message: 'no such room in this location' }],
        });
      if (s.stations[stationId]) throw new DomainError('already-exists', 'a station with this id already exists', 409);
      const stations = Object.values(s.stations);
      if (stations.length >= LIMITS.locations.maxStations)
        throw rule('too-many-stations', `a location has at most ${LIMITS.locations.maxStations} stations`);
      if (stations.some((st) => codeKey(st.code) === codeKey(code))) {
        throw rule('duplicate-station-code', `this location already has a station with code '${code.trim()}'`);
      }
      return [{ type: 'StationAdded', data: { stationId, code: code.trim(), roomId } }];
    }
    case 'DeactivateStation': {
      if (station(state, command.data.stationId).status === 'inactive') throw rule('station-inactive', 'the station is already inactive');
      checkDetails({ reason: command.data.reason });
      return [{ type: 'StationDeactivated', data: { stationId: command.data.stationId, reason: command.data.reason.trim() } }];
    }
    case 'ReactivateStation': {
      if (station(state, command.data.stationId).status === 'active') throw rule('station-active', 'the station is already active');
      open(state);
      checkDetails({ reason: command.data.reason });
      return [{ type: 'StationReactivated', data: { stationId: command.data.stationId, reason: command.data.reason.trim() } }];
    }
  }
}

export const locationDecider: Decider<LocationCommand, LocationEvent, LocationState> = {
  category: LOCATION_CATEGORY,
  initialState: initialLocationState,
  evolve: evolveLocation,
  decide: decideLocation,
};
