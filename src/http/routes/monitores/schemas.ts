// JSON Schemas of /monitores: what clients send and what they read.
import type { JsonSchema } from '../../routeTypes.js';
import { freeText } from '../../commonSchemas.js';
import { FAULT_SEVERITIES, MACHINE_ISOLATIONS, MACHINE_STATUSES, TICKET_STATUSES } from '../../../commands/monitores/machineEvents.js';
import { ISOLATION_CATEGORIES } from '../../../commands/empresas/shared/policySettings.js';
import { DateSchema, DateTimeSchema, IdSchema, ReasonSchema, text } from '../shared/fieldSchemas.js';

export const TAG = 'Monitores';
export const READ = 'monitores:read';
export const WRITE = 'monitores:write';

const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const SessionIdSchema = text(64, 'Dialysis session id (the daily record)');
const IsolationSchema: JsonSchema = {
  anyOf: [
    { enum: [...MACHINE_ISOLATIONS] },
    { type: 'array', minItems: 1, maxItems: ISOLATION_CATEGORIES.length, uniqueItems: true, items: { enum: [...ISOLATION_CATEGORIES] } },
  ],
};

const fields: Record<string, JsonSchema> = {
  code: { ...text(40), description: 'Unique within the company, compared trimmed and ignoring case' },
  serial: { ...text(64), description: 'Manufacturer serial number; unique within the company, compared trimmed and ignoring case' },
  brand: text(80),
  model: { ...text(100), description: "The company policy's preventive maintenance plan may differ per model" },
  locationId: { ...IdSchema, description: 'Location (sede) of the company' },
  stationId: { ...IdSchema, description: 'Station (puesto) of that location' },
  installDate: DateSchema,
  warrantyEnd: DateSchema,
  isolation: {
    ...IsolationSchema,
    description:
      'What the machine serves: none, one isolation category, or a set of them (e.g. ["HBV", "HCV"] for co-infected patients). ' +
      'A dedicated machine takes only patients under every category it serves; a patient under a category the company policy ' +
      'dedicates machines to (isolation.dedicatedMachineFor, default HBV) only a machine serving it',
  },
};

export const RegisterBody = obj(fields, ['code', 'serial', 'brand', 'model', 'locationId', 'stationId', 'installDate', 'isolation']);

export const CorrectBody: JsonSchema = {
  ...obj({ ...fields, warrantyEnd: { anyOf: [DateSchema, { type: 'null' }], description: 'null clears it' }, reason: ReasonSchema }, [
    'reason',
  ]),
  minProperties: 2,
};

export const StartUseBody = obj({ sessionId: SessionIdSchema, patientId: IdSchema });
export const EndUseBody = obj({ sessionId: SessionIdSchema });
export const StartDisinfectionBody = obj({ method: text(100, 'e.g. heat, heat + citric acid, hypochlorite, peracetic acid') });
export const DisinfectionBody = obj(
  {
    method: text(100, 'e.g. heat, heat + citric acid, hypochlorite, peracetic acid'),
    chemical: text(100),
    lot: text(60),
    afterSessionId: { ...SessionIdSchema, description: 'The session it follows; the last session of the machine when absent' },
  },
  ['method'],
);
export const CalibrationBody = obj(
  {
    parameter: text(80, 'e.g. conductivity, temperature, venous pressure'),
    reference: { type: 'number', description: 'Value of the reference (standard solution, independent meter)' },
    measured: { type: 'number', description: 'Value the machine showed' },
    unit: text(20),
    passed: { type: 'boolean' },
  },
  ['parameter', 'reference', 'measured', 'passed'],
);
export const PreventiveBody = obj(
  {
    performedOn: DateSchema,
    actions: freeText(2000, 'What was done (e.g. 500 h kit, conductivity adjusted)'),
    technician: text(120),
    tests: {
      type: 'array',
      maxItems: 50,
      items: obj({ name: text(120), passed: { type: 'boolean' } }, ['name', 'passed']),
      description: 'Return-to-service tests: a failed one keeps the machine in preventive maintenance (the plan is not restarted)',
    },
  },
  ['performedOn', 'actions'],
);
export const FaultBody = obj({ severity: { enum: [...FAULT_SEVERITIES] }, problem: freeText(2000, 'What fails') });
export const TicketStepBody = obj(
  {
    to: { enum: ['assigned', 'in-progress', 'waiting-for-part'], description: 'assigned needs assignedTo; waiting-for-part needs part' },
    assignedTo: text(120, 'Technician (qualified for this machine)'),
    part: text(120, 'The part awaited'),
  },
  ['to'],
);
const Part = obj({ name: text(120), quantity: { type: 'integer', minimum: 1, maximum: 1000 } });
const Cost = obj({ amount: { type: 'number', minimum: 0 }, currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217' } });
export const RepairBody = obj(
  {
    workDone: freeText(2000, 'Work done'),
    partsReplaced: { type: 'array', maxItems: 50, items: Part },
    cost: Cost,
    downtimeHours: { type: 'number', minimum: 0, maximum: 100_000 },
  },
  ['workDone', 'partsReplaced', 'downtimeHours'],
);
const ReturnTest = obj({ name: text(120, 'Return-to-service test'), passed: { type: 'boolean' } });
export const CloseBody = obj({
  tests: { type: 'array', minItems: 1, maxItems: 50, items: ReturnTest, description: 'Any failed test leaves the machine out of service' },
});
export const ReasonBody = obj({ reason: ReasonSchema });

const StartReason = obj({ code: { type: 'string' }, message: { type: 'string' } });
export const StartVerdictView = obj({
  allowed: { type: 'boolean' },
  reasons: {
    type: 'array',
    items: StartReason,
    description:
      'Every reason it may not start (codes: not-available, awaiting-disinfection, maintenance-overdue, calibration-failed, calibration-overdue, isolation-machine, isolation-patient)',
  },
  warnings: { type: 'array', items: StartReason, description: 'What does not block (maintenance-overdue when the policy only warns)' },
});

const Ticket = obj(
  {
    ticketId: IdSchema,
    status: { enum: [...TICKET_STATUSES] },
    severity: { enum: [...FAULT_SEVERITIES] },
    problem: { type: 'string' },
    openedAt: DateTimeSchema,
    statusBeforeFault: { enum: [...MACHINE_STATUSES] },
    assignedTo: { type: 'string' },
    part: { type: 'string' },
    workDone: { type: 'string' },
    partsReplaced: { type: 'array', items: Part },
    cost: Cost,
    downtimeHours: { type: 'number' },
  },
  ['ticketId', 'status', 'severity', 'problem', 'openedAt', 'statusBeforeFault'],
);

const Maintenance = obj({
  everyHours: { type: ['integer', 'null'] },
  everyDays: { type: ['integer', 'null'] },
  hoursLeft: { type: ['number', 'null'], description: 'Operating hours left (negative: overdue by that many)' },
  dueDate: { ...nullable(DateSchema), description: 'Due by this day' },
  overdue: { type: 'boolean' },
});

export const MachineView = obj(
  {
    id: IdSchema,
    revision: { type: 'integer', minimum: 0 },
    code: { type: 'string' },
    serial: { type: 'string' },
    brand: { type: 'string' },
    model: { type: 'string' },
    locationId: IdSchema,
    stationId: IdSchema,
    installDate: DateSchema,
    warrantyEnd: DateSchema,
    isolation: IsolationSchema,
    status: { enum: [...MACHINE_STATUSES], description: 'Derived from the history, never set directly' },
    hourMeter: { type: 'number', description: 'Operating hours' },
    sessionCount: { type: 'integer' },
    currentSession: nullable(
      obj(
        {
          sessionId: { type: 'string' },
          patientId: IdSchema,
          startedAt: DateTimeSchema,
          patientIsolation: { type: 'array', items: { type: 'string' }, description: "The patient's isolation at start" },
        },
        ['sessionId', 'patientId', 'startedAt'],
      ),
    ),
    lastSessionId: { type: ['string', 'null'] },
    lastPreventiveMaintenance: nullable(obj({ performedOn: DateSchema, hourMeter: { type: 'number' } })),
    lastDisinfection: nullable(
      obj(
        {
          method: { type: 'string' },
          chemical: { type: 'string' },
          lot: { type: 'string' },
          afterSessionId: { type: ['string', 'null'] },
          performedAt: DateTimeSchema,
        },
        ['method', 'afterSessionId', 'performedAt'],
      ),
    ),
    lastCalibration: nullable(
      obj(
        {
          parameter: { type: 'string' },
          reference: { type: 'number' },
          measured: { type: 'number' },
          unit: { type: 'string' },
          passed: { type: 'boolean' },
          performedAt: DateTimeSchema,
        },
        ['parameter', 'reference', 'measured', 'passed', 'performedAt'],
      ),
    ),
    openTicket: { ...nullable(Ticket), description: 'The corrective ticket in course; closed ones are in the history' },
    retireReason: { type: ['string', 'null'] },
    maintenance: { ...nullable(Maintenance), description: 'Next preventive maintenance under the policy of now; null once retired' },
    failedCalibrations: {
      type: 'array',
      items: { type: 'string' },
      description: 'Parameters whose last calibration failed: the machine is out of service until each passes',
    },
    calibration: {
      ...nullable(obj({ everyDays: { type: ['integer', 'null'] }, dueDate: nullable(DateSchema), overdue: { type: 'boolean' } })),
      description: 'Next calibration under the policy of now (from the last passing calibration or maintenance); null once retired',
    },
    createdAt: DateTimeSchema,
    createdBy: { type: 'string' },
    updatedAt: DateTimeSchema,
    updatedBy: { type: 'string' },
  },
  [
    'id',
    'revision',
    'code',
    'serial',
    'brand',
    'model',
    'locationId',
    'stationId',
    'installDate',
    'isolation',
    'status',
    'hourMeter',
    'sessionCount',
    'currentSession',
    'lastSessionId',
    'lastPreventiveMaintenance',
    'lastDisinfection',
    'lastCalibration',
    'openTicket',
    'retireReason',
    'maintenance',
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
  ],
);
