// Commands on module definitions as the routes run them: the code is the stream id (creating expects no stream, so a
// taken code of any status answers 409), If-Match where the design asks; the reserved codes come from the route layer and
// a reference to another module is checked against that module's own stream (strongly, no read model lag).
import { DomainError } from '../../decider.js';
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../../handleCommand.js';
import type { EventStore } from '../../../stores/eventStore.js';
import type { DefinitionPolicy } from '../shared/definitionRules.js';
import type { ModuleDefinition, UpcastStep } from '../shared/definitionTypes.js';
import { evolveModule, initialModuleState, type ModuleState } from '../shared/moduleFold.js';
import { moduleDecider } from './moduleDecider.js';
import { moduleStream, type ModuleCommand } from './moduleEvents.js';

export interface ModuleDeps {
  events: EventStore;
  /** Built-in groups' path segments and permission prefixes (computed once by the route layer). */
  reservedCodes: readonly string[];
}

type Result = CommandResult<ModuleState>;

const FOLD = { initialState: initialModuleState, evolve: evolveModule };

/** The policy of a definition: the reserved codes, and which of the modules it references the company has (any status). */
async function policyFor(deps: ModuleDeps, tenantId: string, definition?: ModuleDefinition): Promise<DefinitionPolicy> {
  const referenced = [...new Set((definition?.fields ?? []).flatMap((f) => (f.refersTo === 'module' && f.module ? [f.module] : [])))];
  const held = await Promise.all(
    referenced.map(async (code) => ((await loadAggregate(deps.events, FOLD, moduleStream(tenantId, code))).state.exists ? [code] : [])),
  );
  return { reservedCodes: deps.reservedCodes, moduleCodes: held.flat() };
}

const run = async (
  deps: ModuleDeps,
  ctx: CommandContext,
  command: Omit<ModuleCommand, 'at' | 'actor' | 'tenantId'>,
  ifMatch: number | null,
  definition?: ModuleDefinition,
): Promise<Result> => handleCommand(deps.events, moduleDecider(await policyFor(deps, ctx.tenantId, definition)), command, ctx, { ifMatch });

/** A new module, draft at 1.0; a code the company already used (also a retired module's) answers 409 module-code-taken. */
export async function defineModule(
  deps: ModuleDeps,
  ctx: CommandContext,
  code: string,
  definition: ModuleDefinition,
): Promise<{ code: string; result: Result }> {
  const decider = moduleDecider(await policyFor(deps, ctx.tenantId, definition));
  try {
    const command = { type: 'DefineModule' as const, aggregateId: code, data: { code, definition } };
    return { code, result: await handleCommand(deps.events, decider, command, ctx, { expectNew: true }) };
  } catch (err) {
    // Lost a race for the same code: the other request's module holds it.
    if (err instanceof DomainError && err.code === 'already-exists')
      throw new DomainError('module-code-taken', `the company already has a module ${code} (of any status)`, 409);
    throw err;
  }
}

export const changeModuleDefinition = (
  deps: ModuleDeps,
  ctx: CommandContext,
  code: string,
  definition: ModuleDefinition,
  ifMatch: number,
) => run(deps, ctx, { type: 'ChangeModuleDefinition', aggregateId: code, data: { definition } }, ifMatch, definition);

export const addModuleMajorVersion = (
  deps: ModuleDeps,
  ctx: CommandContext,
  code: string,
  definition: ModuleDefinition,
  upcast: UpcastStep[],
  ifMatch: number,
) => run(deps, ctx, { type: 'AddModuleMajorVersion', aggregateId: code, data: { definition, upcast } }, ifMatch, definition);

export const publishModule = (deps: ModuleDeps, ctx: CommandContext, code: string, ifMatch: number | null) =>
  run(deps, ctx, { type: 'PublishModule', aggregateId: code, data: {} }, ifMatch);

export const retireModule = (deps: ModuleDeps, ctx: CommandContext, code: string, ifMatch: number | null) =>
  run(deps, ctx, { type: 'RetireModule', aggregateId: code, data: {} }, ifMatch);
