// Events and commands of a location (sede, stream `<tenant>.location-<locationId>`) with its rooms and stations.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the location streams: written once, here (the decider, the writes and the read side take it). */
export const LOCATION_CATEGORY = 'location';
export const locationStream = (tenantId: string, locationId: string): string => streamName(tenantId, LOCATION_CATEGORY, locationId);

export type RoomIsolation = 'none' | 'HBV' | 'HCV' | 'HIV';
export const ROOM_ISOLATIONS: readonly RoomIsolation[] = ['none', 'HBV', 'HCV', 'HIV'];

export type LocationAddress = {
  line: string;
  district?: string;
  city?: string;
  region?: string;
  country?: string;
};

export type LocationDetails = {
  name: string;
  address: LocationAddress | null;
  /** The health registry's code of the facility (e.g. Peru's RENIPRESS). */
  registryCode: string | null;
};

/** A correction: the fields it names (null clears address or registry code). */
export type LocationPatch = Partial<LocationDetails>;

export type LocationEvent =
  | DecidedEvent<'LocationOpened', LocationDetails & { locationId: string }>
  | DecidedEvent<'LocationCorrected', { changes: LocationPatch; previous: LocationPatch }>
  | DecidedEvent<'LocationClosed', { reason: string }>
  | DecidedEvent<'RoomAdded', { roomId: string; name: string; isolation: RoomIsolation }>
  | DecidedEvent<'RoomRenamed', { roomId: string; name: string; previousName: string }>
  | DecidedEvent<'StationAdded', { stationId: string; code: string; roomId: string }>
  | DecidedEvent<'StationDeactivated', { stationId: string; reason: string }>
  | DecidedEvent<'StationReactivated', { stationId: string; reason: string }>;

export const LOCATION_EVENT_TYPES: readonly LocationEvent['type'][] = [
  'LocationOpened',
  'LocationCorrected',
  'LocationClosed',
  'RoomAdded',
  'RoomRenamed',
  'StationAdded',
  'StationDeactivated',
  'StationReactivated',
];

export type LocationCommand =
  | CommandEnvelope<'OpenLocation', { name: string; address?: LocationAddress | null; registryCode?: string | null }>
  | CommandEnvelope<'CorrectLocation', LocationPatch>
  | CommandEnvelope<'CloseLocation', { reason: string }>
  | CommandEnvelope<'AddRoom', { roomId: string; name: string; isolation?: RoomIsolation }>
  | CommandEnvelope<'RenameRoom', { roomId: string; name: string }>
  | CommandEnvelope<'AddStation', { stationId: string; code: string; roomId: string }>
  | CommandEnvelope<'DeactivateStation', { stationId: string; reason: string }>
  | CommandEnvelope<'ReactivateStation', { stationId: string; reason: string }>;
