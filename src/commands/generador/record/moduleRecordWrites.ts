// Commands on records of a company-defined module as the routes run them: the module folded from its stream (strong),
// the patient and every referenced record read from the company's own streams (another company's are simply not there).
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { notFound } from '../../decider.js';
import { newId, uuidV5 } from '../../eventIds.js';
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import { PATIENT_CATEGORY } from '../../pacientes/patientEvents.js';
import { STAFF_CATEGORY } from '../../colaboradores/staffEvents.js';
import { MACHINE_CATEGORY } from '../../monitores/machineEvents.js';
import { PRODUCT_CATEGORY } from '../../productos/productEvents.js';
import { moduleStream } from '../module/moduleEvents.js';
import { evolveModule, initialModuleState, type ModuleState } from '../shared/moduleFold.js';
import type { ModuleDefinition, RecordValues, ReferenceTarget } from '../shared/definitionTypes.js';
import { moduleRecordDecider, type ModuleRecordState, type RecordFacts } from './moduleRecordDecider.js';
import { moduleRecordStream, type ModuleRecordCommand } from './moduleRecordEvents.js';

/** What the writes need of the services (the routes pass AppServices). */
export interface ModuleRecordDeps {
  events: EventStore;
}
type Result = CommandResult<ModuleRecordState>;

/** A new record's id: tied to the Idempotency-Key, so a retried create writes the same record once. */
export const moduleRecordIdFor = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`moduleRecord\u0000${idempotencyKey}`) : newId();

/** The module as its events make it now, read from its own stream of the company. */
export async function loadModule(events: EventStore, tenantId: string, code: string): Promise<ModuleState> {
  const { state } = await loadAggregate(events, { initialState: initialModuleState, evolve: evolveModule }, moduleStream(tenantId, code));
  return state;
}

// Ids only ever name a stream when they could be an id (a schema lets uuids through; this keeps a stray value harmless).
const ID = /^[A-Za-z0-9_-]{1,100}$/;
const FIRST_EVENT: Record<Exclude<ReferenceTarget, 'module'>, { category: string; type: string }> = {
  patient: { category: PATIENT_CATEGORY, type: 'PatientRegistered' },
  staff: { category: STAFF_CATEGORY, type: 'StaffHired' },
  machine: { category: MACHINE_CATEGORY, type: 'MachineRegistered' },
  product: { category: PRODUCT_CATEGORY, type: 'ProductCreated' },
};

/** The record exists in the company: its stream's first event is its creation (one event read, however long the stream). */
async function exists(events: EventStore, tenantId: string, target: ReferenceTarget, id: string, module?: string): Promise<boolean> {
  if (!ID.test(id)) return false;
  if (target === 'module') {
    const [first] = await events.readStream(moduleRecordStream(tenantId, id), { maxCount: 1 });
    return first?.type === 'ModuleRecordCreated' && (first.data as { module?: string }).module === module;
  }
  const { category, type } = FIRST_EVENT[target];
  const [first] = await events.readStream(streamName(tenantId, category, id), { maxCount: 1 });
  return first?.type === type;
}

/** For each reference field a command sets: whether the record it names exists in the company. */
async function referenceFacts(
  events: EventStore,
  tenantId: string,
  definition: ModuleDefinition,
  values: Record<string, unknown>,
): Promise<Record<string, boolean>> {
  const checked = definition.fields
    .filter((f) => f.type === 'reference' && f.refersTo && typeof values[f.name] === 'string')
    .map(async (f) => [f.name, await exists(events, tenantId, f.refersTo!, values[f.name] as string, f.module)] as const);
  return Object.fromEntries(await Promise.all(checked));
}

/** Creates a record (the route derives `recordId` with moduleRecordIdFor); 404 unless the module is published. */
export async function createModuleRecord(
  deps: ModuleRecordDeps,
  ctx: CommandContext,
  input: { module: string; recordId: string; patientId: string | null; values: RecordValues },
): Promise<{ recordId: string; result: Result }> {
  const { module, recordId, patientId, values } = input;
  const policy = await loadModule(deps.events, ctx.tenantId, module);
  const defaults: Record<string, unknown> = Object.fromEntries(policy.definition.fields.map((f) => [f.name, f.default]));
  const [patientExists, references] = await Promise.all([
    patientId === null ? false : exists(deps.events, ctx.tenantId, 'patient', patientId),
    referenceFacts(deps.events, ctx.tenantId, policy.definition, { ...defaults, ...values }),
  ]);
  const command = { type: 'CreateModuleRecord' as const, aggregateId: recordId, data: { recordId, module, patientId, values } };
  const result = await handleCommand(deps.events, moduleRecordDecider(policy, { patientExists, references }), command, ctx, {
    expectNew: true,
  });
  return { recordId, result };
}

/**
 * The module of a command on an existing record, and 404 when the record is not one of its (another module's record
 * given to this module's route, or none): read before If-Match, so a wrong revision never tells it exists elsewhere.
 */
async function moduleOfRecord(events: EventStore, tenantId: string, module: string, recordId: string): Promise<ModuleState> {
  const [policy, [first]] = await Promise.all([
    loadModule(events, tenantId, module),
    events.readStream(moduleRecordStream(tenantId, recordId), { maxCount: 1 }),
  ]);
  if (first?.type !== 'ModuleRecordCreated' || (first.data as { module?: string }).module !== module) throw notFound('record');
  return policy;
}

type Later = Exclude<ModuleRecordCommand, { type: 'CreateModuleRecord' }>;
const run = (
  deps: ModuleRecordDeps,
  ctx: CommandContext,
  policy: ModuleState,
  facts: RecordFacts,
  id: string,
  command: Pick<Later, 'type' | 'data'>,
  ifMatch: number | null,
) => handleCommand(deps.events, moduleRecordDecider(policy, facts), { ...command, aggregateId: id }, ctx, { ifMatch });

/** Sets and clears fields (a null clears an optional one); an old record moves onto the current major. If-Match required by the route. */
export async function amendModuleRecord(
  deps: ModuleRecordDeps,
  ctx: CommandContext,
  module: string,
  recordId: string,
  values: Record<string, RecordValues[string] | null>,
  ifMatch: number | null,
): Promise<Result> {
  const policy = await moduleOfRecord(deps.events, ctx.tenantId, module, recordId);
  const references = await referenceFacts(deps.events, ctx.tenantId, policy.definition, values);
  return run(deps, ctx, policy, { references }, recordId, { type: 'AmendModuleRecord', data: { values } }, ifMatch);
}

/**
 * Takes a record through a transition. `signed` is true when the route already checked the step-up code; a function
 * instead confirms it (spends the code) only once the record, the transition and If-Match are judged, so a refusal
 * never spends it.
 */
export async function transitionModuleRecord(
  deps: ModuleRecordDeps,
  ctx: CommandContext,
  module: string,
  recordId: string,
  transition: string,
  signed: boolean | (() => Promise<void>),
  ifMatch: number | null,
): Promise<Result> {
  const policy = await moduleOfRecord(deps.events, ctx.tenantId, module, recordId);
  const data = { transition, signed: signed !== false };
  const signs = policy.definition.states?.transitions.find((t) => t.name === transition)?.signs === true;
  if (typeof signed === 'function' && signs) {
    const decider = moduleRecordDecider(policy);
    const { state, revision } = await loadAggregate(deps.events, decider, moduleRecordStream(ctx.tenantId, recordId));
    if (ifMatch !== null && ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
    const at = ctx.at ?? new Date().toISOString();
    decider.decide({ type: 'TransitionModuleRecord', data, aggregateId: recordId, at, actor: ctx.actor, tenantId: ctx.tenantId }, state);
    await signed();
  }
  return run(deps, ctx, policy, {}, recordId, { type: 'TransitionModuleRecord', data }, ifMatch);
}

/** Archives a record: read-only from then on, still listed (archived=true). */
export async function archiveModuleRecord(
  deps: ModuleRecordDeps,
  ctx: CommandContext,
  module: string,
  recordId: string,
  ifMatch: number | null,
): Promise<Result> {
  const policy = await moduleOfRecord(deps.events, ctx.tenantId, module, recordId);
  return run(deps, ctx, policy, {}, recordId, { type: 'ArchiveModuleRecord', data: {} }, ifMatch);
}
