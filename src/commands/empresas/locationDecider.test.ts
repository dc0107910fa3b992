import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import type { CommandEnvelope } from '../decider.js';
import { locationDecider } from './locationDecider.js';
import type { LocationCommand, LocationEvent } from './locationEvents.js';

const given = scenario(locationDecider);

function command<T extends LocationCommand['type']>(type: T, data: Extract<LocationCommand, CommandEnvelope<T>>['data']): LocationCommand {
  return { type, data, at: '2025-03-10T14:00:00.000Z', actor: 'admin-1', aggregateId: 'loc-1', tenantId: 'clinic1' } as LocationCommand;
}

const opened: LocationEvent = {
  type: 'LocationOpened',
  data: { locationId: 'loc-1', name: 'Sede Miraflores', address: { line: 'Av. Larco 123' }, registryCode: '00012345' },
};
const roomAdded = (roomId = 'r-1', name = 'Sala A'): LocationEvent => ({ type: 'RoomAdded', data: { roomId, name, isolation: 'none' } });
const stationAdded = (stationId = 's-1', code = 'P-01'): LocationEvent => ({
  type: 'StationAdded',
  data: { stationId, code, roomId: 'r-1' },
});
const closed: LocationEvent = { type: 'LocationClosed', data: { reason: 'Mudanza' } };

describe('location decider', () => {
  it('opens a location with trimmed name and registry code', () => {
    given()
      .when(command('OpenLocation', { name: ' Sede Miraflores ', address: { line: 'Av. Larco 123' }, registryCode: ' 00012345' }))
      .then(opened);
  });

  it('refuses to open one twice, and blank names', () => {
    given(opened)
      .when(command('OpenLocation', { name: 'Otra' }))
      .thenError('already-exists');
    given()
      .when(command('OpenLocation', { name: '  ', registryCode: ' ' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e).sort(), ['name', 'registryCode']));
  });

  it('records only what a correction changes, and nothing for a correction that changes nothing', () => {
    given(opened)
      .when(command('CorrectLocation', { name: 'Sede Miraflores', registryCode: null }))
      .then({ type: 'LocationCorrected', data: { changes: { registryCode: null }, previous: { registryCode: '00012345' } } });
    given(opened)
      .when(command('CorrectLocation', { name: 'Sede Miraflores ' }))
      .then();
  });

  it('adds rooms with their isolation, names unique within the location', () => {
    given(opened)
      .when(command('AddRoom', { roomId: 'r-2', name: 'Sala HBV', isolation: 'HBV' }))
      .then({ type: 'RoomAdded', data: { roomId: 'r-2', name: 'Sala HBV', isolation: 'HBV' } });
    given(opened, roomAdded())
      .when(command('AddRoom', { roomId: 'r-2', name: 'sala a' }))
      .thenError('duplicate-room-name');
  });

  it('renames a room, and refuses a name another room has', () => {
    given(opened, roomAdded(), roomAdded('r-2', 'Sala B'))
      .when(command('RenameRoom', { roomId: 'r-2', name: 'Sala C' }))
      .then({ type: 'RoomRenamed', data: { roomId: 'r-2', name: 'Sala C', previousName: 'Sala B' } });
    given(opened, roomAdded(), roomAdded('r-2', 'Sala B'))
      .when(command('RenameRoom', { roomId: 'r-2', name: 'SALA A' }))
      .thenError('duplicate-room-name');
    given(opened)
      .when(command('RenameRoom', { roomId: 'r-9', name: 'X' }))
      .thenError('not-found');
  });

  it('adds stations in an existing room, codes unique within the location', () => {
    given(opened, roomAdded())
      .when(command('AddStation', { stationId: 's-1', code: ' P-01 ', roomId: 'r-1' }))
      .then(stationAdded());
    given(opened, roomAdded(), stationAdded())
      .when(command('AddStation', { stationId: 's-2', code: 'p-01', roomId: 'r-1' }))
      .thenError('duplicate-station-code');
    given(opened, roomAdded())
      .when(command('AddStation', { stationId: 's-2', code: 'P-02', roomId: 'r-9' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['roomId']));
  });

  it('takes no new rooms or stations once closed, and closes once', () => {
    given(opened, roomAdded(), closed)
      .when(command('AddRoom', { roomId: 'r-2', name: 'Sala B' }))
      .thenError('location-closed');
    given(opened, roomAdded(), closed)
      .when(command('AddStation', { stationId: 's-2', code: 'P-02', roomId: 'r-1' }))
      .thenError('location-closed');
    given(opened, closed)
      .when(command('CloseLocation', { reason: 'otra vez' }))
      .thenError('location-closed');
    given(opened)
      .when(command('CloseLocation', { reason: ' ' }))
      .thenError('validation-failed');
  });

  it('deactivates and reactivates a station with a reason', () => {
    const deactivated: LocationEvent = { type: 'StationDeactivated', data: { stationId: 's-1', reason: 'Fuga de agua' } };
    given(opened, roomAdded(), stationAdded())
      .when(command('DeactivateStation', { stationId: 's-1', reason: ' Fuga de agua ' }))
      .then(deactivated);
    given(opened, roomAdded(), stationAdded(), deactivated)
      .when(command('DeactivateStation', { stationId: 's-1', reason: 'x' }))
      .thenError('station-inactive');
    given(opened, roomAdded(), stationAdded(), deactivated)
      .when(command('ReactivateStation', { stationId: 's-1', reason: 'Reparada' }))
      .then({ type: 'StationReactivated', data: { stationId: 's-1', reason: 'Reparada' } });
    given(opened, roomAdded(), stationAdded())
      .when(command('ReactivateStation', { stationId: 's-1', reason: 'x' }))
      .thenError('station-active');
    given(opened, roomAdded(), stationAdded(), deactivated, closed)
      .when(command('ReactivateStation', { stationId: 's-1', reason: 'x' }))
      .thenError('location-closed');
    given(opened)
      .when(command('DeactivateStation', { stationId: 's-9', reason: 'x' }))
      .thenError('not-found');
  });

  it('answers not-found for commands on a location that does not exist', () => {
    given()
      .when(command('AddRoom', { roomId: 'r-1', name: 'Sala A' }))
      .thenError('not-found');
    given()
      .when(command('CorrectLocation', { name: 'X' }))
      .thenError('not-found');
  });
});
