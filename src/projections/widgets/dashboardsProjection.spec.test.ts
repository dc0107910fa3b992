// Spec of the dashboards projection: one document per dashboard, and the company's activity counter kept beside them.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { DASHBOARD_ACTIVITY, DASHBOARDS, dashboardsProjection } from './dashboardsProjection.js';
import { ACTIVITY_ID, type DashboardActivityDoc, type DashboardDoc } from './dashboardDoc.js';

const given = projectionSpec(dashboardsProjection);
const panel = { panelId: 'p1', widgetId: 'dashboard-activity', params: {}, position: { x: 0, y: 0, w: 6, h: 4 } };
const created = (id: string, scope: 'person' | 'company') => ({
  type: 'DashboardCreated',
  data: { dashboardId: id, scope, ownerUserId: scope === 'person' ? 'u1' : null, copiedFrom: null, title: 'Mine', panels: [panel] },
});
const saved = { type: 'DashboardLayoutSaved', data: { title: 'Moved', panels: [{ ...panel, position: { x: 6, y: 0, w: 6, h: 4 } }] } };

describe('widgets-dashboards projection', () => {
  it('keeps each dashboard with its layout and revision', async () => {
    await given(streamOf('t1', 'dashboard', 'd1')(created('d1', 'person'), saved)).then<DashboardDoc>(DASHBOARDS, 'd1', (doc) => {
      assert.deepEqual([doc.scope, doc.ownerUserId, doc.title, doc.revision], ['person', 'u1', 'Moved', 1]);
      assert.equal(doc.panels[0]!.position.x, 6);
    });
  });

  it('counts the dashboards of the company by scope and remembers the latest layout change, once per event', async () => {
    const events = [
      ...streamOf('t1', 'dashboard', 'd1')(created('d1', 'person'), saved),
      ...streamOf('t1', 'dashboard', 'd2')(created('d2', 'company')),
    ];
    const outcome = given(...events);
    await outcome.then<DashboardActivityDoc>(DASHBOARD_ACTIVITY, ACTIVITY_ID, (doc) => {
      assert.deepEqual([doc.person, doc.company], [1, 1]);
      assert.equal(doc.lastChange?.dashboardId, 'd2');
    });
    await given(...events, events[0]!).then<DashboardActivityDoc>(DASHBOARD_ACTIVITY, ACTIVITY_ID, (doc) => assert.equal(doc.person, 1));
    await given(...events).thenIdempotent();
    await outcome.in('t2').thenAbsent(DASHBOARD_ACTIVITY, ACTIVITY_ID);
  });

  it("remembers the company default's latest change, never a person's (their dashboard is theirs alone)", async () => {
    const events = [
      ...streamOf('t1', 'dashboard', 'd2')(created('d2', 'company'), saved),
      ...streamOf('t1', 'dashboard', 'd1')(created('d1', 'person'), saved),
    ];
    await given(...events).then<DashboardActivityDoc>(DASHBOARD_ACTIVITY, ACTIVITY_ID, (doc) => {
      assert.deepEqual([doc.person, doc.company], [1, 1]);
      assert.deepEqual([doc.lastChange?.dashboardId, doc.lastChange?.title], ['d2', 'Moved']);
    });
    await given(...streamOf('t1', 'dashboard', 'd1')(created('d1', 'person'), saved)).then<DashboardActivityDoc>(
      DASHBOARD_ACTIVITY,
      ACTIVITY_ID,
      (doc) => assert.deepEqual([doc.person, doc.lastChange], [1, null]),
    );
  });
});
