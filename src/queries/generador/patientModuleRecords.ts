// The records of a patient's company-defined modules, for the patient's history: their ids (from the records read
// model H3 builds: projection 'generadorRecords', collection 'moduleRecords') and a small fold of a record's events
// so the history says what each event changed.
import type { TenantScope } from '../tenantScope.js';
import type { Page, ReadDoc } from '../../stores/readStore.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import type { ModuleRecordEvent } from '../../commands/generador/record/moduleRecordEvents.js';
import type { RecordValues } from '../../commands/generador/shared/definitionTypes.js';

/** The records read model's names (DESIGN26.md, "Read side of records"). */
export const RECORDS_PROJECTION = 'generadorRecords';
export const MODULE_RECORDS = 'moduleRecords';

interface RecordRef {
  id: string;
  module: string;
}

interface RecordRefDoc extends ReadDoc {
  module: string;
  patientId: string | null;
}

/** The collection, or null while no records read model is registered (before the records' read side is served). */
function recordsOf(scope: TenantScope) {
  try {
    return scope.services.projections.collection<RecordRefDoc>(RECORDS_PROJECTION, MODULE_RECORDS);
  } catch {
    return null;
  }
}

/** Every module record of the patient (of any module, archived too), by id. */
export async function recordsOfPatient(scope: TenantScope, patientId: string): Promise<RecordRef[]> {
  const records = recordsOf(scope);
  if (!records) return [];
  const out: RecordRef[] = [];
  let after: string | null = null;
  do {
    const page: Page<RecordRefDoc> = await records.find(
      scope.auth.tenantId,
      { patientId },
      { sort: { id: 1 }, limit: 500, after, projection: { id: 1, module: 1 } },
    );
    out.push(...page.items.map(({ id, module }) => ({ id, module })));
    after = page.nextCursor;
  } while (after);
  return out;
}

interface RecordState {
  module: string;
  patientId: string | null;
  state: string | null;
  archived: boolean;
  major: number;
  values: RecordValues;
}

/** A record as its events leave it (values as written, in the major each event names): what the history compares. */
export function foldModuleRecord(doc: RecordState | null, event: RecordedEvent): RecordState | null {
  const e = event as unknown as ModuleRecordEvent;
  switch (e.type) {
    case 'ModuleRecordCreated': {
      const { module, patientId, state, major, values } = e.data;
      return { module, patientId, state, archived: false, major, values: { ...values } };
    }
    case 'ModuleRecordAmended': {
      if (!doc) return doc;
      const base = e.data.rewritten ? {} : doc.values;
      const values = Object.fromEntries(Object.entries({ ...base, ...e.data.values }).filter(([k]) => !e.data.cleared.includes(k)));
      return { ...doc, major: e.data.major, values };
    }
    case 'ModuleRecordTransitioned':
      return doc && { ...doc, state: e.data.to };
    case 'ModuleRecordArchived':
      return doc && { ...doc, archived: true };
    default:
      return doc;
  }
}
