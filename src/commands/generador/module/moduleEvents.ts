// Module definitions (stream `<tenant>.generatedModule-<code>`: the code is the module's id, so it is unique in the
// company by the stream itself). Draft, published, retired; every change of the definition is an event with its version.
import type { CommandEnvelope, DecidedEvent } from '../../decider.js';
import { streamName } from '../../../stores/streamNames.js';
import type { ModuleDefinition, ModuleVersion, UpcastStep } from '../shared/definitionTypes.js';

export const MODULE_CATEGORY = 'generatedModule';
export const moduleStream = (tenantId: string, code: string): string => streamName(tenantId, MODULE_CATEGORY, code);

export type ModuleCommand =
  | CommandEnvelope<'DefineModule', { code: string; definition: ModuleDefinition }>
  /** A draft changes freely; a published module takes only compatible changes here (a new minor version). */
  | CommandEnvelope<'ChangeModuleDefinition', { definition: ModuleDefinition }>
  /** A breaking change of a published module: a new major version with the mapping of older records. */
  | CommandEnvelope<'AddModuleMajorVersion', { definition: ModuleDefinition; upcast: UpcastStep[] }>
  | CommandEnvelope<'PublishModule', Record<string, never>>
  | CommandEnvelope<'RetireModule', Record<string, never>>;

export type ModuleEvent =
  | DecidedEvent<'ModuleDefined', { code: string; definition: ModuleDefinition; version: ModuleVersion }>
  | DecidedEvent<'ModuleDefinitionChanged', { definition: ModuleDefinition; version: ModuleVersion; changes: string[] }>
  | DecidedEvent<
      'ModuleMajorVersionAdded',
      { definition: ModuleDefinition; version: ModuleVersion; upcast: UpcastStep[]; changes: string[] }
    >
  | DecidedEvent<'ModulePublished', { version: ModuleVersion }>
  | DecidedEvent<'ModuleRetired', Record<string, never>>;

export const MODULE_EVENT_TYPES: readonly ModuleEvent['type'][] = [
  'ModuleDefined',
  'ModuleDefinitionChanged',
  'ModuleMajorVersionAdded',
  'ModulePublished',
  'ModuleRetired',
];
