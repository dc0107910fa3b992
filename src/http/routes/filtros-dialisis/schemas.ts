// JSON Schemas of /filtros-dialisis: what clients send and what they read, declared once with TypeBox.
import Type, { type TObject, type TProperties } from 'typebox';
import { freeText } from '../../commonSchemas.js';
import { DIALYZER_STATUSES, DISCARD_REASONS, FLUXES, TEST_RESULTS } from '../../../commands/filtros-dialisis/dialyzerEvents.js';
import { READINESS_REASONS } from '../../../commands/filtros-dialisis/shared/readiness.js';
import { IdSchema, nullable, text } from '../shared/fieldSchemas.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('filtros-dialisis', 'FiltrosDialisis');

const obj = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });
const result = (description?: string) => Type.Enum(TEST_RESULTS, description ? { description } : {});
const dateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const date = (description?: string) => Type.String({ format: 'date', ...(description ? { description } : {}) });
const volumeMl = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 1000, description });

export const ReceiveBody = obj({
  model: text(80, 'Dialyzer model (maximum uses per model come from the company policy)'),
  surfaceM2: Type.Number({ exclusiveMinimum: 0, maximum: 5, description: 'Membrane surface (m²)' }),
  flux: Type.Enum(FLUXES),
  membrane: text(80, 'Membrane material'),
  lot: text(40),
  serial: text(60, 'Unique within the company, compared trimmed and ignoring case'),
  reusable: Type.Boolean({ description: 'Labelled for reuse; a single-use dialyzer is discarded after its use' }),
});

export const AssignBody = obj({
  patientId: IdSchema,
  baselineTcvMl: volumeMl('Total cell volume measured before first use (mL)'),
});

const germicide = obj({
  name: text(60),
  lot: text(40),
  concentrationPercent: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
});
const reprocessor = obj({ kind: Type.Enum(['machine', 'manual']), name: Type.Optional(text(80, 'Reprocessor machine')) });

export const ReprocessBody = obj({
  operatorId: text(80, 'Who reprocessed it (user id or staff code)'),
  reprocessor,
  tcvMl: volumeMl('Measured total cell volume (mL)'),
  pressureLeak: result('Pressure-leak (blood path integrity) test; a failure quarantines the dialyzer'),
  bloodLeak: result('Blood-leak test; a failure discards the dialyzer'),
  germicide,
  fillTime: dateTime('Germicide fill: the start of the dwell'),
  storageLocation: freeText(120, 'Where it is stored'),
  expiresOn: date('Use before (end of day)'),
});

export const PreUseChecksBody = obj({
  patientId: IdSchema,
  germicidePotency: Type.Optional(result('Germicide presence/potency verified before rinse (required before a reuse)')),
  residualTest: Type.Optional(
    Type.Enum(['negative', 'positive'], { description: 'Residual germicide test after rinse (required before a reuse)' }),
  ),
  identityConfirmations: Type.Array(
    obj({
      userId: IdSchema,
      code: Type.String({ pattern: '^[0-9]{6}$', description: "This person's current authenticator code (spent once)" }),
    }),
    {
      minItems: 2,
      maxItems: 2,
      description:
        'The two different people who confirmed the patient identity, each with their own authenticator code: active members of ' +
        'the company with a staff record that may sign clinical records now',
    },
  ),
});

export const UseBody = obj({ sessionId: text(80, 'The dialysis session'), patientId: IdSchema });

export const DiscardBody = obj({
  reason: Type.Enum(DISCARD_REASONS, { description: 'Discard reason (domain list)' }),
  note: Type.Optional(freeText(500)),
});

const checksView = obj({
  patientId: IdSchema,
  germicidePotency: Type.Optional(result()),
  residualTest: Type.Optional(Type.Enum(['negative', 'positive'])),
  identityConfirmedBy: Type.Array(Type.String(), { description: 'The two people who confirmed, each with their code' }),
});

export const DialyzerView = obj({
  id: IdSchema,
  revision: Type.Integer({ minimum: 0 }),
  model: Type.String(),
  surfaceM2: Type.Number(),
  flux: Type.Enum(FLUXES),
  membrane: Type.String(),
  lot: Type.String(),
  serial: Type.String(),
  reusable: Type.Boolean(),
  status: Type.Enum(DIALYZER_STATUSES, {
    description:
      'in-stock, assigned (to its patient, not used yet), in-use (claimed by a running session), used (awaiting reprocessing), ' +
      'stored, quarantined, discarded (final)',
  }),
  patientId: nullable(IdSchema),
  baselineTcvMl: nullable(Type.Number()),
  uses: Type.Integer({ minimum: 0 }),
  cycle: Type.Integer({ minimum: 0, description: 'Reprocessings so far' }),
  lastFillTime: nullable(dateTime()),
  lastGermicide: nullable(Type.String({ description: 'Germicide of the last reprocessing (its minimum dwell applies)' })),
  expiresOn: nullable(date()),
  checks: nullable(checksView),
  firstUseAt: nullable(dateTime()),
  lastUseAt: nullable(dateTime()),
  lastReprocessedAt: nullable(dateTime()),
  lastTcvPercent: nullable(Type.Number()),
  storageLocation: nullable(Type.String()),
  discardReason: nullable(Type.Enum(DISCARD_REASONS)),
  // The reservation shows only while a session holds the dialyzer.
  reservation: Type.Optional(
    Type.Object(
      { sessionId: Type.String(), patientId: IdSchema, reservedAt: dateTime() },
      { additionalProperties: false, description: 'The running session that claimed it at its start (status in-use); absent otherwise' },
    ),
  ),
  createdAt: dateTime(),
  createdBy: Type.String(),
  updatedAt: dateTime(),
  updatedBy: Type.String(),
});

const reasons = Type.Array(Type.Enum(READINESS_REASONS), { description: 'Every rule that fails' });

export const ReadinessView = obj({ ready: Type.Boolean(), reasons });

export const ReadyListView = obj({
  items: Type.Array(obj({ dialyzer: DialyzerView, ready: Type.Boolean(), reasons })),
});

export const AlertListView = obj({
  items: Type.Array(
    obj({
      dialyzer: DialyzerView,
      maxUses: Type.Integer(),
      alerts: Type.Array(Type.Enum(['near-max-uses', 'falling-tcv'])),
    }),
  ),
});
