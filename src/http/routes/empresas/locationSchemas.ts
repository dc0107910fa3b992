// JSON Schemas of locations (sedes), their rooms (salas) and stations (puestos), declared once with TypeBox.
import Type from 'typebox';
import { ROOM_ISOLATIONS } from '../../../commands/empresas/locationEvents.js';
import { LIMITS } from '../../../limits.js';
import { freeText } from '../../commonSchemas.js';
import { IdSchema, nullable, stringOrNull, text } from '../shared/fieldSchemas.js';

export const LocationParams = Type.Object({ sedeId: IdSchema }, { additionalProperties: false });
export const RoomParams = Type.Object({ sedeId: IdSchema, salaId: IdSchema }, { additionalProperties: false });
export const StationParams = Type.Object({ sedeId: IdSchema, puestoId: IdSchema }, { additionalProperties: false });

export const ReasonSchema = freeText(500, 'Why: recorded with the event and shown in the history');
export const ReasonBody = Type.Object({ reason: ReasonSchema }, { additionalProperties: false });

const AddressSchema = Type.Object(
  {
    line: text(200),
    district: Type.Optional(text(100)),
    city: Type.Optional(text(100)),
    region: Type.Optional(text(100)),
    country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })),
  },
  { additionalProperties: false },
);
const RegistryCodeSchema = text(30, "The health registry's code of the facility (e.g. Peru's RENIPRESS)");
const isolationDescription = 'Rooms set apart for patients with HBV, HCV or HIV; none for the general room';
const IsolationSchema = Type.Enum(ROOM_ISOLATIONS, { description: isolationDescription });

export const OpenLocationBody = Type.Object(
  { name: text(150), address: Type.Optional(AddressSchema), registryCode: Type.Optional(RegistryCodeSchema) },
  { additionalProperties: false },
);

export const CorrectLocationBody = Type.Object(
  {
    name: Type.Optional(text(150)),
    address: Type.Optional(nullable(AddressSchema)),
    registryCode: Type.Optional(nullable(RegistryCodeSchema)),
    reason: Type.Optional(ReasonSchema),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'Only the fields sent change; null clears the address or the registry code',
  },
);

const roomName = text(100, 'Unique within the location (ignoring case)');
export const AddRoomBody = Type.Object(
  { name: roomName, isolation: Type.Optional(Type.Enum(ROOM_ISOLATIONS, { description: isolationDescription, default: 'none' })) },
  { additionalProperties: false },
);

export const RenameRoomBody = Type.Object({ name: roomName, reason: Type.Optional(ReasonSchema) }, { additionalProperties: false });

export const AddStationBody = Type.Object(
  {
    code: text(20, 'Unique within the location (ignoring case and surrounding spaces), e.g. P-01'),
    roomId: Type.String({ format: 'uuid', description: 'A room of this location' }),
  },
  { additionalProperties: false },
);

const RoomView = Type.Object({ roomId: IdSchema, name: Type.String(), isolation: IsolationSchema }, { additionalProperties: false });
const StationView = Type.Object(
  {
    stationId: IdSchema,
    code: Type.String(),
    roomId: IdSchema,
    status: Type.Enum(['active', 'inactive']),
    statusReason: stringOrNull({ description: 'Why it was last deactivated or reactivated' }),
  },
  { additionalProperties: false },
);

export const LocationView = Type.Object(
  {
    id: IdSchema,
    revision: Type.Integer({ minimum: 0, description: 'The ETag' }),
    name: Type.String(),
    address: nullable(AddressSchema),
    registryCode: stringOrNull(),
    status: Type.Enum(['open', 'closed'], { description: 'A closed location takes no new rooms or stations' }),
    closedReason: stringOrNull(),
    rooms: Type.Array(RoomView, { maxItems: LIMITS.locations.maxRooms }),
    stations: Type.Array(StationView, { maxItems: LIMITS.locations.maxStations }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    createdId: Type.Optional(Type.String({ format: 'uuid', description: 'Id of the room or station this request created' })),
  },
  { additionalProperties: false },
);
