// Queries over locations (sedes): the list, and the station lookup other groups use (the daily record schedules
// sessions on stations).
import type { Filter, Page } from '../../stores/readStore.js';
import type { TenantScope } from '../tenantScope.js';
import { locationView, type LocationDoc } from '../../projections/empresas/locationDoc.js';
import { locations } from './readModel.js';
import { changedSince } from '../changedSince.js';

export interface LocationListQuery {
  status?: LocationDoc['status'];
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

export async function listLocations(scope: TenantScope, query: LocationListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = query.status ? { status: query.status } : {};
  const page = await locations(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { sortName: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(locationView), nextCursor: page.nextCursor };
}

/** A station as a scheduler needs it: where it is, the isolation of its room, and whether it may be used. */
export interface StationInfo {
  locationId: string;
  locationName: string;
  locationStatus: 'open' | 'closed';
  stationId: string;
  code: string;
  status: 'active' | 'inactive';
  roomId: string;
  roomName: string;
  isolation: 'none' | 'HBV' | 'HCV' | 'HIV';
  /** Revision of the location stream the answer was read at. */
  revision: number;
}

/**
 * The station `stationId` of location `locationId` in the caller's company; null when either does not exist (or is
 * another company's). A station is usable when it is active and its location open.
 */
export async function stationOf(scope: TenantScope, locationId: string, stationId: string): Promise<StationInfo | null> {
  const doc = await locations(scope).get(scope.auth.tenantId, locationId);
  const station = doc?.stations.find((s) => s.stationId === stationId);
  if (!doc || !station) return null;
  const room = doc.rooms.find((r) => r.roomId === station.roomId);
  return {
    locationId: doc.id,
    locationName: doc.name,
    locationStatus: doc.status,
    stationId,
    code: station.code,
    status: station.status,
    roomId: station.roomId,
    roomName: room?.name ?? '',
    isolation: room?.isolation ?? 'none',
    revision: doc.revision,
  };
}
