// JSON Schemas of locations (sedes), their rooms (salas) and stations (puestos).
import type { JsonSchema } from '../../routeTypes.js';
import { freeText } from '../../commonSchemas.js';
import { ROOM_ISOLATIONS } from '../../../commands/empresas/locationEvents.js';
import { LIMITS } from '../../../limits.js';
import { IdSchema, nullable, text } from './support.js';

const params = (...names: string[]): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, IdSchema])),
});
export const LocationParams = params('sedeId');
export const RoomParams = params('sedeId', 'salaId');
export const StationParams = params('sedeId', 'puestoId');

export const ReasonSchema = freeText(500, 'Why: recorded with the event and shown in the history');

const AddressSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['line'],
  properties: {
    line: text(200),
    district: text(100),
    city: text(100),
    region: text(100),
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' },
  },
};
const RegistryCodeSchema = text(30, "The health registry's code of the facility (e.g. Peru's RENIPRESS)");
const IsolationSchema: JsonSchema = {
  enum: [...ROOM_ISOLATIONS],
  description: 'Rooms set apart for patients with HBV, HCV or HIV; none for the general room',
};

export const OpenLocationBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: text(150), address: AddressSchema, registryCode: RegistryCodeSchema },
};

export const CorrectLocationBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'Only the fields sent change; null clears the address or the registry code',
  properties: { name: text(150), address: nullable(AddressSchema), registryCode: nullable(RegistryCodeSchema), reason: ReasonSchema },
};

export const ReasonBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason: ReasonSchema },
};

export const AddRoomBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: text(100, 'Unique within the location (ignoring case)'), isolation: { ...IsolationSchema, default: 'none' } },
};

export const RenameRoomBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: text(100, 'Unique within the location (ignoring case)'), reason: ReasonSchema },
};

export const AddStationBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'roomId'],
  properties: {
    code: text(20, 'Unique within the location (ignoring case and surrounding spaces), e.g. P-01'),
    roomId: { ...IdSchema, description: 'A room of this location' },
  },
};

const RoomView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['roomId', 'name', 'isolation'],
  properties: { roomId: IdSchema, name: { type: 'string' }, isolation: IsolationSchema },
};
const StationView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['stationId', 'code', 'roomId', 'status', 'statusReason'],
  properties: {
    stationId: IdSchema,
    code: { type: 'string' },
    roomId: IdSchema,
    status: { enum: ['active', 'inactive'] },
    statusReason: { type: ['string', 'null'], description: 'Why it was last deactivated or reactivated' },
  },
};

export const LocationView: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'revision', 'name', 'address', 'registryCode', 'status', 'closedReason', 'rooms', 'stations', 'createdAt', 'updatedAt'],
  properties: {
    id: IdSchema,
    revision: { type: 'integer', minimum: 0, description: 'The ETag' },
    name: { type: 'string' },
    address: nullable(AddressSchema),
    registryCode: { type: ['string', 'null'] },
    status: { enum: ['open', 'closed'], description: 'A closed location takes no new rooms or stations' },
    closedReason: { type: ['string', 'null'] },
    rooms: { type: 'array', maxItems: LIMITS.locations.maxRooms, items: RoomView },
    stations: { type: 'array', maxItems: LIMITS.locations.maxStations, items: StationView },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    createdId: { ...IdSchema, description: 'Id of the room or station this request created' },
  },
};
