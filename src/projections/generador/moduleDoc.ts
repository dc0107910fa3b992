// The module definition read model: one document per module of a company, folded from its stream with the same fold
// as the decider's, so the projection and a read-after-write fold build the same document.
import type { ModuleEvent } from '../../commands/generador/module/moduleEvents.js';
import { evolveModule, initialModuleState, type ModuleState } from '../../commands/generador/shared/moduleFold.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { modulePermission } from '../../commands/generador/shared/definitionTypes.js';

export type ModuleDoc = ProjectedDoc &
  Omit<ModuleState, 'exists'> & {
    /** Revision of the module's stream: the ETag. */
    revision: number;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
  };

export function foldModule(doc: ModuleDoc | null, recorded: RecordedEvent): ModuleDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as ModuleEvent;
  if (!doc && event.type !== 'ModuleDefined') return null;
  const { exists: _e, ...state } = evolveModule(doc ? { ...doc, exists: true } : initialModuleState, event);
  return {
    tenantId: tenantOfStream(recorded.streamName),
    id: aggregateIdOfStream(recorded.streamName),
    ...state,
    revision: recorded.revision,
    createdAt: doc?.createdAt ?? recorded.metadata.occurredAt,
    createdBy: doc?.createdBy ?? recorded.metadata.actor,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
}

/**
 * What clients see of a module: its definition now spread beside its code, status and version, each major with the mapping
 * of older records (its definition left out), its permissions' names and its records' path.
 */
export function moduleView(doc: ModuleDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, definition, majors, id, code, status, version, ...meta } = doc;
  return {
    id,
    code,
    status,
    ...definition,
    version,
    majors: majors.map(({ major, minor, upcast }) => ({ major, minor, upcast })),
    permissions: { read: modulePermission(code, 'read'), write: modulePermission(code, 'write'), sign: modulePermission(code, 'sign') },
    recordsPath: `/generador/m/${code}`,
    ...meta,
  };
}
