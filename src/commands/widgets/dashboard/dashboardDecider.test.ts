// Given dashboard events / when a command (with a view of the widget catalog) / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { dashboardDecider } from './dashboardDecider.js';
import type { DashboardCommand, DashboardEvent, DashboardPolicy, Panel } from './dashboardEvents.js';

// The catalog as the decider sees it: 'census' (readable, takes a date), 'alerts' (the person may not read it).
const policy: DashboardPolicy = {
  widget: (id) =>
    id === 'census' || id === 'alerts'
      ? {
          readable: id === 'census',
          paramErrors: (params) =>
            Object.keys(params)
              .filter((name) => name !== 'date' || !/^\d{4}-\d{2}-\d{2}$/.test(String(params[name])))
              .map((name) => ({ name, message: name === 'date' ? 'must be a date' : 'not a parameter of this widget' })),
        }
      : undefined,
};
const given = scenario(dashboardDecider(policy));
const at = '2026-03-01T10:00:00.000Z';
const cmd = <T extends DashboardCommand['type']>(type: T, data: Extract<DashboardCommand, { type: T }>['data']): DashboardCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'd1', tenantId: 't1' }) as DashboardCommand;

const panel = (overrides: Partial<Panel> = {}): Panel => ({
  panelId: 'p1',
  widgetId: 'census',
  params: {},
  position: { x: 0, y: 0, w: 6, h: 4 },
  ...overrides,
});
const mine = { scope: 'person' as const, ownerUserId: 'u1', copiedFrom: null };
const created = (panels: Panel[] = [panel()]): DashboardEvent => ({
  type: 'DashboardCreated',
  data: { dashboardId: 'd1', ...mine, title: 'Mine', panels },
});

describe('dashboard decider', () => {
  it("creates a person's dashboard with its panels, trimming the title", () => {
    given()
      .when(cmd('CreateDashboard', { ...mine, title: ' Mine ', panels: [panel()] }))
      .then(created());
  });

  it('refuses a second creation of the same dashboard (the company default is one per company)', () => {
    given(created())
      .when(cmd('CreateDashboard', { ...mine, title: 'Again', panels: [] }))
      .thenError('already-exists');
  });

  it('names every broken panel field: unknown widget, unreadable widget, bad params, duplicate id, off the grid', () => {
    const panels = [
      panel({ widgetId: 'nope' }),
      panel({ panelId: 'p2', widgetId: 'alerts' }),
      panel({ panelId: 'p3', params: { date: 'yesterday', month: '2026-01' } }),
      panel({ panelId: 'p3', position: { x: 8, y: 0, w: 6, h: 2 } }),
    ];
    given()
      .when(cmd('CreateDashboard', { ...mine, title: ' ', panels }))
      .thenError('validation-failed', (e) =>
        assert.deepEqual(failedFields(e), [
          'title',
          'panels/0/widgetId',
          'panels/1/widgetId',
          'panels/2/params/date',
          'panels/2/params/month',
          'panels/3/panelId',
          'panels/3/position/w',
        ]),
      );
  });

  it('lets the company default hold a widget some readers may not read, and at most 24 panels', () => {
    given()
      .when(
        cmd('CreateDashboard', {
          scope: 'company',
          ownerUserId: null,
          copiedFrom: null,
          title: 'Unit',
          panels: [panel({ widgetId: 'alerts' })],
        }),
      )
      .then({
        type: 'DashboardCreated',
        data: {
          dashboardId: 'd1',
          scope: 'company',
          ownerUserId: null,
          copiedFrom: null,
          title: 'Unit',
          panels: [panel({ widgetId: 'alerts' })],
        },
      });
    const many = Array.from({ length: 25 }, (_, i) => panel({ panelId: `p${i}` }));
    given()
      .when(cmd('CreateDashboard', { ...mine, title: 'Many', panels: many }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['panels']));
  });

  it('saves a new layout, keeping the title when none is sent; the same layout again decides nothing', () => {
    const moved = [panel({ position: { x: 6, y: 2, w: 6, h: 4 } })];
    given(created())
      .when(cmd('SaveDashboardLayout', { panels: moved }))
      .then({ type: 'DashboardLayoutSaved', data: { title: 'Mine', panels: moved } });
    given(created())
      .when(cmd('SaveDashboardLayout', { title: 'Mine', panels: [panel()] }))
      .then();
  });

  it('refuses a saved layout with a widget the owner may not read, and a dashboard that does not exist', () => {
    given(created())
      .when(cmd('SaveDashboardLayout', { panels: [panel({ widgetId: 'alerts' })] }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['panels/0/widgetId']));
    given()
      .when(cmd('SaveDashboardLayout', { panels: [] }))
      .thenError('not-found');
  });
});
