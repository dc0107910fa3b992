// The dashboard read model: one document per dashboard, folded from its stream, and the company's dashboard activity
// (a counter doc: dashboards per scope and the latest layout change). Pure, so the projection and the read-after-write
// fallback (folding the stream directly) build the same documents.
import type { DashboardEvent, DashboardScope, Panel } from '../../commands/widgets/dashboard/dashboardEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type DashboardDoc = ProjectedDoc & {
  scope: DashboardScope;
  /** The person whose dashboard it is; null for the company default. */
  ownerUserId: string | null;
  title: string;
  panels: Panel[];
  copiedFrom: string | null;
  /** Revision of the dashboard stream: the ETag. */
  revision: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
};

/** The company's dashboards counted by scope and the company default's latest change (what the `dashboard-activity` widget shows). */
export type DashboardActivityDoc = ProjectedDoc & {
  person: number;
  company: number;
  lastChange: { dashboardId: string; title: string; at: string; by: string } | null;
};

/** The id of the activity counter doc (one per company). */
export const ACTIVITY_ID = 'activity';

export function foldDashboard(doc: DashboardDoc | null, recorded: RecordedEvent): DashboardDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as DashboardEvent;
  const stamp = {
    revision: recorded.revision,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
  if (event.type === 'DashboardCreated') {
    if (doc) return doc;
    const { dashboardId: _id, ...fields } = event.data;
    return {
      tenantId: tenantOfStream(recorded.streamName),
      id: aggregateIdOfStream(recorded.streamName),
      ...fields,
      createdAt: recorded.metadata.occurredAt,
      createdBy: recorded.metadata.actor,
      ...stamp,
    };
  }
  if (!doc) return null;
  return { ...doc, ...stamp, title: event.data.title, panels: event.data.panels };
}

/**
 * Counts the dashboards by scope; `lastChange` is the company default's latest change only (`scope`: the changed
 * dashboard's): a person's own dashboard is theirs alone, never named to the company.
 */
export function foldActivity(doc: DashboardActivityDoc | null, recorded: RecordedEvent, scope: DashboardScope): DashboardActivityDoc {
  const event = { type: recorded.type, data: recorded.data } as unknown as DashboardEvent;
  const current = doc ?? {
    tenantId: tenantOfStream(recorded.streamName),
    id: ACTIVITY_ID,
    person: 0,
    company: 0,
    lastChange: null,
    _position: 0,
  };
  const lastChange =
    scope === 'company'
      ? {
          dashboardId: aggregateIdOfStream(recorded.streamName),
          title: event.data.title,
          at: recorded.metadata.occurredAt,
          by: recorded.metadata.actor,
        }
      : current.lastChange;
  const counted =
    event.type === 'DashboardCreated' ? { [event.data.scope]: current[event.data.scope] + 1 } : ({} as Partial<DashboardActivityDoc>);
  return { ...current, ...counted, lastChange, _position: Number(recorded.position) };
}

/** What clients see: the document without its internal keys, each panel marked readable or not by `readable`. */
export function dashboardView(doc: DashboardDoc, readable: (panel: Panel) => boolean): Record<string, unknown> {
  return {
    id: doc.id,
    scope: doc.scope,
    ownerUserId: doc.ownerUserId,
    title: doc.title,
    panels: doc.panels.map((panel) => ({ ...panel, readable: readable(panel) })),
    copiedFrom: doc.copiedFrom,
    version: doc.revision,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
