// Every rule about a module definition: define, change (a draft freely, a published module compatibly), a new major
// with the mapping of older records, publish and retire. Pure: the reserved codes and the company's modules as policy.
import { DomainError, notFound, type Decider } from '../../decider.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import { checkUpcast, compareDefinitions, uncoveredConflicts } from '../shared/compatibility.js';
import { assertValidModule, checkDefinition, type DefinitionPolicy } from '../shared/definitionRules.js';
import { GENERATOR_LIMITS } from '../shared/definitionTypes.js';
import { evolveModule, initialModuleState, type ModuleState } from '../shared/moduleFold.js';
import { MODULE_CATEGORY, type ModuleCommand, type ModuleEvent } from './moduleEvents.js';

const retired = (code: string) =>
  new DomainError('module-retired', `the module ${code} is retired: its data stays readable, nothing changes`, 409);

function mustExist(state: ModuleState): void {
  if (!state.exists) throw notFound('module');
}

export function decideModule(command: ModuleCommand, state: ModuleState, policy: DefinitionPolicy): ModuleEvent[] {
  switch (command.type) {
    case 'DefineModule': {
      const { code, definition } = command.data;
      if (state.exists) throw new DomainError('module-code-taken', `the company already has a module ${code} (of any status)`, 409);
      assertValidModule(code, definition, policy, true);
      return [{ type: 'ModuleDefined', data: { code, definition, version: { major: 1, minor: 0 } } }];
    }
    case 'ChangeModuleDefinition': {
      mustExist(state);
      if (state.status === 'retired') throw retired(state.code);
      const { definition } = command.data;
      assertValidModule(state.code, definition, policy, false);
      const { changes, conflicts } = compareDefinitions(state.definition, definition);
      if (state.status === 'draft') {
        // A draft has no records: it keeps its version (1.0) whatever changes.
        const all = [...changes, ...conflicts.map((c) => `${c.field}: ${c.detail}`)];
        if (all.length === 0) return [];
        return [{ type: 'ModuleDefinitionChanged', data: { definition, version: state.version, changes: all } }];
      }
      if (conflicts.length > 0)
        throw new DomainError(
          'breaking-change',
          `breaking changes need a new major version (POST /generador/modulos/${state.code}/versiones): ` +
            conflicts.map((c) => `${c.field} ${c.kind}`).join(', '),
          409,
          { conflicts, versions: `/generador/modulos/${state.code}/versiones` },
        );
      if (changes.length === 0) return [];
      const version = { major: state.version.major, minor: state.version.minor + 1 };
      return [{ type: 'ModuleDefinitionChanged', data: { definition, version, changes } }];
    }
    case 'AddModuleMajorVersion': {
      mustExist(state);
      if (state.status === 'retired') throw retired(state.code);
      if (state.status === 'draft')
        throw new DomainError('module-not-published', 'a draft changes freely: change its definition instead of adding a major', 409);
      const { definition, upcast } = command.data;
      const checks = new FieldChecks();
      checkDefinition(checks, definition, state.code, policy);
      checks.check(upcast.length <= GENERATOR_LIMITS.upcastSteps, 'upcast', `at most ${GENERATOR_LIMITS.upcastSteps} steps`);
      checkUpcast(checks, state.definition, definition, upcast);
      checks.throwIfAny();
      const { changes, conflicts } = compareDefinitions(state.definition, definition);
      const uncovered = uncoveredConflicts(conflicts, upcast);
      if (uncovered.length > 0)
        throw new DomainError(
          'uncovered-conflict',
          'the mapping of older records does not cover: ' + uncovered.map((c) => `${c.field} ${c.kind}`).join(', '),
          409,
          { conflicts: uncovered },
        );
      const version = { major: state.version.major + 1, minor: 0 };
      const all = [...changes, ...conflicts.map((c) => `${c.field}: ${c.detail}`)];
      return [{ type: 'ModuleMajorVersionAdded', data: { definition, version, upcast, changes: all } }];
    }
    case 'PublishModule':
      mustExist(state);
      if (state.status === 'retired') throw retired(state.code);
      return state.status === 'published' ? [] : [{ type: 'ModulePublished', data: { version: state.version } }];
    case 'RetireModule':
      mustExist(state);
      return state.status === 'retired' ? [] : [{ type: 'ModuleRetired', data: {} }];
  }
}

export const moduleDecider = (policy: DefinitionPolicy): Decider<ModuleCommand, ModuleEvent, ModuleState> => ({
  category: MODULE_CATEGORY,
  initialState: initialModuleState,
  evolve: evolveModule,
  decide: (command, state) => decideModule(command, state, policy),
});
