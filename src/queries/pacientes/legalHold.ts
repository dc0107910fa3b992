// A patient's legal hold as it stands and its history, folded from the hold's own stream (strong: never behind a write).
import { legalHoldStream, type LegalHoldEvent } from '../../commands/pacientes/legalHoldEvents.js';
import type { TenantScope } from '../tenantScope.js';

export interface LegalHoldEntry {
  revision: number;
  type: LegalHoldEvent['type'];
  occurredAt: string;
  actor: string;
  reason: string;
  reference: string | null;
}

export interface LegalHoldView {
  patientId: string;
  /** Whether a hold is in force: then nothing of the patient may be archived or purged. */
  held: boolean;
  /** The hold in force: when, by whom, why and for which matter; null when none is. */
  current: { since: string; placedBy: string; reason: string; reference: string | null } | null;
  /** Revision of the hold's stream (-1: never held). */
  revision: number;
  /** Every placement and lift, oldest first. */
  history: LegalHoldEntry[];
}

export async function legalHoldOf(scope: TenantScope, patientId: string): Promise<LegalHoldView> {
  const events = await scope.services.events.readStream(legalHoldStream(scope.auth.tenantId, patientId));
  const view: LegalHoldView = { patientId, held: false, current: null, revision: -1, history: [] };
  for (const e of events) {
    const event = e as unknown as LegalHoldEvent;
    const reference = event.type === 'LegalHoldPlaced' ? event.data.reference : null;
    const entry = { revision: e.revision, type: event.type, occurredAt: e.metadata.occurredAt, actor: e.metadata.actor };
    view.history.push({ ...entry, reason: event.data.reason, reference });
    view.revision = e.revision;
    view.held = event.type === 'LegalHoldPlaced';
    view.current = view.held ? { since: entry.occurredAt, placedBy: entry.actor, reason: event.data.reason, reference } : null;
  }
  return view;
}
