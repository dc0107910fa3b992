// Schemas of the tamper-evidence routes: hash chain verifications, signed checkpoints, the public key and exports.
import Type from 'typebox';
import { PageQueryFields } from '../../commonSchemas.js';
import { closed, IdSchema, StringOrNull, stringOrNull } from '../shared/fieldSchemas.js';

const hash = (description = 'SHA-256, hex') => Type.String({ pattern: '^[0-9a-f]{64}$', description });
const position = (description = 'Log position') => Type.String({ pattern: '^[0-9]+$', description });
const Hash = hash();
const Position = position();

export const VerificationParams = closed({ id: IdSchema });
export const SequenceParams = closed({
  sequence: Type.Integer({ minimum: 1, description: 'Checkpoint number of the company (1, 2, 3...)' }),
});
export const TenantParams = closed({
  tenant: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: "A company id, or 'platform'" }),
});

export const BrokenLinkSchema = Type.Object(
  {
    position: Position,
    eventId: Type.String(),
    stream: Type.String(),
    revision: Type.Integer({ minimum: 0 }),
    expectedHash: hash('Recomputed'),
    foundHash: stringOrNull({ description: 'Stored' }),
  },
  { description: 'The first event whose stored hash differs' },
);

export const VerificationSchema = Type.Object({
  id: IdSchema,
  tenant: Type.String(),
  state: Type.Union([Type.Literal('running'), Type.Literal('intact'), Type.Literal('broken'), Type.Literal('failed')]),
  checked: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  startedAt: Type.String({ format: 'date-time' }),
  finishedAt: stringOrNull({ format: 'date-time' }),
  requestedBy: Type.String(),
  brokenLink: Type.Optional(BrokenLinkSchema),
  headHash: Type.Optional(StringOrNull),
  error: Type.Optional(Type.String()),
});

export const CheckpointSchema = Type.Object({
  tenant: Type.String(),
  sequence: Type.Integer({ minimum: 1 }),
  position: Position,
  hash: Hash,
  count: Type.Integer({ minimum: 1 }),
  signedAt: Type.String({ format: 'date-time' }),
  algorithm: Type.Literal('Ed25519'),
  keyId: hash('sha256 of the SPKI DER public key'),
  signature: Type.String({ description: 'Base64 (see scripts/verify-checkpoint.mjs)' }),
});

export const CheckpointListSchema = Type.Object({ items: Type.Array(CheckpointSchema) });

export const PublicKeySchema = Type.Object({
  algorithm: Type.Literal('Ed25519'),
  keyId: hash('sha256 of the SPKI DER public key'),
  publicKeyPem: Type.String(),
  retired: Type.Array(Type.Object({ keyId: Type.String(), publicKeyPem: Type.String(), retiredAt: Type.String({ format: 'date-time' }) }), {
    description: 'Keys replaced by a rotation: older checkpoints name one (keyId)',
  }),
});

export const ChainExportQuery = closed({
  cursor: PageQueryFields.cursor,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
});

const ChainEventSchema = Type.Object({
  position: Position,
  id: Type.String(),
  stream: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  type: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  hash: Hash,
});

export const ChainExportSchema = Type.Object({
  tenant: Type.String(),
  genesisPosition: stringOrNull({ description: 'Where the chain starts' }),
  cursor: stringOrNull(),
  previousHash: hash('Hash of the event at `cursor` (first page: the genesis hash)'),
  events: Type.Array(ChainEventSchema),
  nextCursor: stringOrNull(),
});
