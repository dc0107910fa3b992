// JSON Schemas of /filtros-dialisis: what clients send and what they read.
import type { JsonSchema } from '../../routeTypes.js';
import { freeText } from '../../commonSchemas.js';
import { DIALYZER_STATUSES, DISCARD_REASONS, FLUXES, TEST_RESULTS } from '../../../commands/filtros-dialisis/dialyzerEvents.js';
import { READINESS_REASONS } from '../../../commands/filtros-dialisis/shared/readiness.js';
import { DateSchema, DateTimeSchema, IdSchema, text } from '../shared/fieldSchemas.js';

export const TAG = 'FiltrosDialisis';
export const READ = 'filtros-dialisis:read';
export const WRITE = 'filtros-dialisis:write';

const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const result = { enum: [...TEST_RESULTS] };

const fields: Record<string, JsonSchema> = {
  model: { ...text(80), description: 'Dialyzer model (maximum uses per model come from the company policy)' },
  surfaceM2: { type: 'number', exclusiveMinimum: 0, maximum: 5, description: 'Membrane surface (m²)' },
  flux: { enum: [...FLUXES] },
  membrane: text(80, 'Membrane material'),
  lot: text(40),
  serial: { ...text(60), description: 'Unique within the company, compared trimmed and ignoring case' },
  reusable: { type: 'boolean', description: 'Labelled for reuse; a single-use dialyzer is discarded after its use' },
};

export const ReceiveBody = obj(fields);

export const AssignBody = obj({
  patientId: IdSchema,
  baselineTcvMl: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Total cell volume measured before first use (mL)' },
});

const germicide = obj({
  name: text(60),
  lot: text(40),
  concentrationPercent: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
});
const reprocessor = obj({ kind: { enum: ['machine', 'manual'] }, name: text(80, 'Reprocessor machine') }, ['kind']);

export const ReprocessBody = obj({
  operatorId: { ...text(80), description: 'Who reprocessed it (user id or staff code)' },
  reprocessor,
  tcvMl: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Measured total cell volume (mL)' },
  pressureLeak: { ...result, description: 'Pressure-leak (blood path integrity) test; a failure quarantines the dialyzer' },
  bloodLeak: { ...result, description: 'Blood-leak test; a failure discards the dialyzer' },
  germicide,
  fillTime: { ...DateTimeSchema, description: 'Germicide fill: the start of the dwell' },
  storageLocation: freeText(120, 'Where it is stored'),
  expiresOn: { ...DateSchema, description: 'Use before (end of day)' },
});

export const PreUseChecksBody = obj(
  {
    patientId: IdSchema,
    germicidePotency: { ...result, description: 'Germicide presence/potency verified before rinse (required before a reuse)' },
    residualTest: { enum: ['negative', 'positive'], description: 'Residual germicide test after rinse (required before a reuse)' },
    identityConfirmations: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: obj({
        userId: IdSchema,
        code: { type: 'string', pattern: '^[0-9]{6}$', description: "This person's current authenticator code (spent once)" },
      }),
      description:
        'The two different people who confirmed the patient identity, each with their own authenticator code: active members of ' +
        'the company with a staff record that may sign clinical records now',
    },
  },
  ['patientId', 'identityConfirmations'],
);

export const UseBody = obj({ sessionId: { ...text(80), description: 'The dialysis session' }, patientId: IdSchema });

export const DiscardBody = obj(
  { reason: { enum: [...DISCARD_REASONS], description: 'Discard reason (domain list)' }, note: freeText(500) },
  ['reason'],
);

const checksView = obj(
  {
    patientId: IdSchema,
    germicidePotency: result,
    residualTest: { enum: ['negative', 'positive'] },
    identityConfirmedBy: { type: 'array', items: { type: 'string' }, description: 'The two people who confirmed, each with their code' },
  },
  ['patientId', 'identityConfirmedBy'],
);

const dialyzerViewProperties: Record<string, JsonSchema> = {
  id: IdSchema,
  revision: { type: 'integer', minimum: 0 },
  model: { type: 'string' },
  surfaceM2: { type: 'number' },
  flux: { enum: [...FLUXES] },
  membrane: { type: 'string' },
  lot: { type: 'string' },
  serial: { type: 'string' },
  reusable: { type: 'boolean' },
  status: {
    enum: [...DIALYZER_STATUSES],
    description:
      'in-stock, assigned (to its patient, not used yet), in-use (claimed by a running session), used (awaiting reprocessing), ' +
      'stored, quarantined, discarded (final)',
  },
  patientId: nullable(IdSchema),
  baselineTcvMl: nullable({ type: 'number' }),
  uses: { type: 'integer', minimum: 0 },
  cycle: { type: 'integer', minimum: 0, description: 'Reprocessings so far' },
  lastFillTime: nullable({ type: 'string', format: 'date-time' }),
  lastGermicide: nullable({ type: 'string', description: 'Germicide of the last reprocessing (its minimum dwell applies)' }),
  expiresOn: nullable({ type: 'string', format: 'date' }),
  checks: nullable(checksView),
  firstUseAt: nullable({ type: 'string', format: 'date-time' }),
  lastUseAt: nullable({ type: 'string', format: 'date-time' }),
  lastReprocessedAt: nullable({ type: 'string', format: 'date-time' }),
  lastTcvPercent: nullable({ type: 'number' }),
  storageLocation: nullable({ type: 'string' }),
  discardReason: nullable({ enum: [...DISCARD_REASONS] }),
  reservation: {
    ...obj({ sessionId: { type: 'string' }, patientId: IdSchema, reservedAt: { type: 'string', format: 'date-time' } }),
    description: 'The running session that claimed it at its start (status in-use); absent otherwise',
  },
  createdAt: { type: 'string', format: 'date-time' },
  createdBy: { type: 'string' },
  updatedAt: { type: 'string', format: 'date-time' },
  updatedBy: { type: 'string' },
};
// The reservation shows only while a session holds the dialyzer.
export const DialyzerView: JsonSchema = obj(
  dialyzerViewProperties,
  Object.keys(dialyzerViewProperties).filter((name) => name !== 'reservation'),
);

const reasons = { type: 'array', items: { enum: [...READINESS_REASONS] }, description: 'Every rule that fails' };

export const ReadinessView = obj({ ready: { type: 'boolean' }, reasons });

export const ReadyListView = obj({
  items: { type: 'array', items: obj({ dialyzer: DialyzerView, ready: { type: 'boolean' }, reasons }) },
});

export const AlertListView = obj({
  items: {
    type: 'array',
    items: obj({
      dialyzer: DialyzerView,
      maxUses: { type: 'integer' },
      alerts: { type: 'array', items: { enum: ['near-max-uses', 'falling-tcv'] } },
    }),
  },
});
