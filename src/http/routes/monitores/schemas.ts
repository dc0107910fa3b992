// JSON Schemas of /monitores: what clients send and what they read, declared once with TypeBox.
import Type, { type TObject, type TProperties } from 'typebox';
import { freeText } from '../../commonSchemas.js';
import { FAULT_SEVERITIES, MACHINE_ISOLATIONS, MACHINE_STATUSES, TICKET_STATUSES } from '../../../commands/monitores/machineEvents.js';
import { ISOLATION_CATEGORIES } from '../../../commands/empresas/shared/policySettings.js';
import { DateSchema, DateTimeSchema, IdSchema, nullable, text } from '../shared/fieldSchemas.js';
import { clearable, correctionBody } from '../shared/correctionBody.js';
import { groupNames } from '../shared/groupNames.js';

export const { TAG, READ, WRITE } = groupNames('monitores', 'Monitores');

const obj = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });
const uuid = (description: string) => Type.String({ format: 'uuid', description });
const SessionIdSchema = text(64, 'Dialysis session id (the daily record)');
const isolationOptions = [
  Type.Enum(MACHINE_ISOLATIONS),
  Type.Array(Type.Enum(ISOLATION_CATEGORIES), { minItems: 1, maxItems: ISOLATION_CATEGORIES.length, uniqueItems: true }),
] as const;
const IsolationSchema = Type.Union([...isolationOptions]);

const fields = {
  code: text(40, 'Unique within the company, compared trimmed and ignoring case'),
  serial: text(64, 'Manufacturer serial number; unique within the company, compared trimmed and ignoring case'),
  brand: text(80),
  model: text(100, "The company policy's preventive maintenance plan may differ per model"),
  locationId: uuid('Location (sede) of the company'),
  stationId: uuid('Station (puesto) of that location'),
  installDate: DateSchema,
  warrantyEnd: DateSchema,
  isolation: Type.Union([...isolationOptions], {
    description:
      'What the machine serves: none, one isolation category, or a set of them (e.g. ["HBV", "HCV"] for co-infected patients). ' +
      'A dedicated machine takes only patients under every category it serves; a patient under a category the company policy ' +
      'dedicates machines to (isolation.dedicatedMachineFor, default HBV) only a machine serving it',
  }),
};

export const RegisterBody = obj({
  code: fields.code,
  serial: fields.serial,
  brand: fields.brand,
  model: fields.model,
  locationId: fields.locationId,
  stationId: fields.stationId,
  installDate: fields.installDate,
  warrantyEnd: Type.Optional(fields.warrantyEnd),
  isolation: fields.isolation,
});

export const CorrectBody = correctionBody({ ...fields, warrantyEnd: clearable(DateSchema) });

const disinfectionMethod = text(100, 'e.g. heat, heat + citric acid, hypochlorite, peracetic acid');
export const StartUseBody = obj({ sessionId: SessionIdSchema, patientId: IdSchema });
export const EndUseBody = obj({ sessionId: SessionIdSchema });
export const StartDisinfectionBody = obj({ method: disinfectionMethod });
export const DisinfectionBody = obj({
  method: disinfectionMethod,
  chemical: Type.Optional(text(100)),
  lot: Type.Optional(text(60)),
  afterSessionId: Type.Optional(text(64, 'The session it follows; the last session of the machine when absent')),
});
export const CalibrationBody = obj({
  parameter: text(80, 'e.g. conductivity, temperature, venous pressure'),
  reference: Type.Number({ description: 'Value of the reference (standard solution, independent meter)' }),
  measured: Type.Number({ description: 'Value the machine showed' }),
  unit: Type.Optional(text(20)),
  passed: Type.Boolean(),
});
export const PreventiveBody = obj({
  performedOn: DateSchema,
  actions: freeText(2000, 'What was done (e.g. 500 h kit, conductivity adjusted)'),
  technician: Type.Optional(text(120)),
  tests: Type.Optional(
    Type.Array(obj({ name: text(120), passed: Type.Boolean() }), {
      maxItems: 50,
      description: 'Return-to-service tests: a failed one keeps the machine in preventive maintenance (the plan is not restarted)',
    }),
  ),
});
export const FaultBody = obj({ severity: Type.Enum(FAULT_SEVERITIES), problem: freeText(2000, 'What fails') });
export const TicketStepBody = obj({
  to: Type.Enum(['assigned', 'in-progress', 'waiting-for-part'], {
    description: 'assigned needs assignedTo; waiting-for-part needs part',
  }),
  assignedTo: Type.Optional(text(120, 'Technician (qualified for this machine)')),
  part: Type.Optional(text(120, 'The part awaited')),
});
const Part = obj({ name: text(120), quantity: Type.Integer({ minimum: 1, maximum: 1000 }) });
const Cost = obj({ amount: Type.Number({ minimum: 0 }), currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' }) });
export const RepairBody = obj({
  workDone: freeText(2000, 'Work done'),
  partsReplaced: Type.Array(Part, { maxItems: 50 }),
  cost: Type.Optional(Cost),
  downtimeHours: Type.Number({ minimum: 0, maximum: 100_000 }),
});
const ReturnTest = obj({ name: text(120, 'Return-to-service test'), passed: Type.Boolean() });
export const CloseBody = obj({
  tests: Type.Array(ReturnTest, { minItems: 1, maxItems: 50, description: 'Any failed test leaves the machine out of service' }),
});

const StartReason = obj({ code: Type.String(), message: Type.String() });
export const StartVerdictView = obj({
  allowed: Type.Boolean(),
  reasons: Type.Array(StartReason, {
    description:
      'Every reason it may not start (codes: not-available, awaiting-disinfection, maintenance-overdue, calibration-failed, calibration-overdue, isolation-machine, isolation-patient)',
  }),
  warnings: Type.Array(StartReason, { description: 'What does not block (maintenance-overdue when the policy only warns)' }),
});

const Ticket = obj({
  ticketId: IdSchema,
  status: Type.Enum(TICKET_STATUSES),
  severity: Type.Enum(FAULT_SEVERITIES),
  problem: Type.String(),
  openedAt: DateTimeSchema,
  statusBeforeFault: Type.Enum(MACHINE_STATUSES),
  assignedTo: Type.Optional(Type.String()),
  part: Type.Optional(Type.String()),
  workDone: Type.Optional(Type.String()),
  partsReplaced: Type.Optional(Type.Array(Part)),
  cost: Type.Optional(Cost),
  downtimeHours: Type.Optional(Type.Number()),
});

const Maintenance = obj({
  everyHours: nullable(Type.Integer()),
  everyDays: nullable(Type.Integer()),
  hoursLeft: Type.Union([Type.Number(), Type.Null()], { description: 'Operating hours left (negative: overdue by that many)' }),
  dueDate: Type.Union([DateSchema, Type.Null()], { description: 'Due by this day' }),
  overdue: Type.Boolean(),
});

export const MachineView = obj({
  id: IdSchema,
  revision: Type.Integer({ minimum: 0 }),
  code: Type.String(),
  serial: Type.String(),
  brand: Type.String(),
  model: Type.String(),
  locationId: IdSchema,
  stationId: IdSchema,
  installDate: DateSchema,
  warrantyEnd: Type.Optional(DateSchema),
  isolation: IsolationSchema,
  status: Type.Enum(MACHINE_STATUSES, { description: 'Derived from the history, never set directly' }),
  hourMeter: Type.Number({ description: 'Operating hours' }),
  sessionCount: Type.Integer(),
  currentSession: nullable(
    obj({
      sessionId: Type.String(),
      patientId: IdSchema,
      startedAt: DateTimeSchema,
      patientIsolation: Type.Optional(Type.Array(Type.String(), { description: "The patient's isolation at start" })),
    }),
  ),
  lastSessionId: nullable(Type.String()),
  lastPreventiveMaintenance: nullable(obj({ performedOn: DateSchema, hourMeter: Type.Number() })),
  lastDisinfection: nullable(
    obj({
      method: Type.String(),
      chemical: Type.Optional(Type.String()),
      lot: Type.Optional(Type.String()),
      afterSessionId: nullable(Type.String()),
      performedAt: DateTimeSchema,
    }),
  ),
  lastCalibration: nullable(
    obj({
      parameter: Type.String(),
      reference: Type.Number(),
      measured: Type.Number(),
      unit: Type.Optional(Type.String()),
      passed: Type.Boolean(),
      performedAt: DateTimeSchema,
    }),
  ),
  openTicket: Type.Union([Ticket, Type.Null()], { description: 'The corrective ticket in course; closed ones are in the history' }),
  retireReason: nullable(Type.String()),
  maintenance: Type.Union([Maintenance, Type.Null()], {
    description: 'Next preventive maintenance under the policy of now; null once retired',
  }),
  failedCalibrations: Type.Optional(
    Type.Array(Type.String(), { description: 'Parameters whose last calibration failed: the machine is out of service until each passes' }),
  ),
  calibration: Type.Optional(
    Type.Union([obj({ everyDays: nullable(Type.Integer()), dueDate: nullable(DateSchema), overdue: Type.Boolean() }), Type.Null()], {
      description: 'Next calibration under the policy of now (from the last passing calibration or maintenance); null once retired',
    }),
  ),
  createdAt: DateTimeSchema,
  createdBy: Type.String(),
  updatedAt: DateTimeSchema,
  updatedBy: Type.String(),
});
