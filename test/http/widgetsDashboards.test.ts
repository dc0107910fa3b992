// Dashboards over HTTP (issue 25, item 3): a person's own dashboard copied from the company default on first use,
// layout saves with If-Match, panels checked against the widget catalog, visibility (another person's or company's: 404),
// the company default behind widgets:write, and the history.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startStaffWorld, type Answer, type Json, type StaffWorld } from './staffWorld.js';
import { WIDGETS } from '../../src/queries/widgets/widgetCatalog.js';
import { clientToken } from './adminWorld.js';

const panel = (overrides: Json = {}): Json => ({
  panelId: 'activity',
  widgetId: 'dashboard-activity',
  params: {},
  position: { x: 0, y: 0, w: 6, h: 4 },
  ...overrides,
});
const panelsOf = (answer: Answer): Json[] => answer.body.panels as Json[];

describe('Widgets over HTTP: dashboards (/widgets/tableros)', () => {
  let w: StaffWorld;
  let reader: { userId: string; token: string };
  let other: { userId: string; token: string };
  // A widget some readers may not read (the clinical ones need pacientes:notes), when the catalog has one.
  const restricted = WIDGETS.find((widget) => widget.permissions.length > 0);

  before(async () => {
    w = await startStaffWorld();
    reader = await w.memberWith(['widgets:read']);
    other = await w.memberWith(['widgets:read']);
  });
  after(async () => w?.close());

  const mine = async (token: string) => expectStatus(await w.call(token, 'GET', '/widgets/tableros/mio'), 200);
  const put = (token: string, id: string, body: Json, ifMatch?: string) =>
    w.call(token, 'PUT', `/widgets/tableros/${id}`, { json: body, headers: ifMatch ? { 'if-match': ifMatch } : {} });

  it('without a company default, first use builds one of every widget the person may read', async () => {
    const first = await w.memberWith(['widgets:read']);
    const dashboard = await mine(first.token);
    assert.deepEqual([dashboard.body.scope, dashboard.body.ownerUserId, dashboard.body.copiedFrom], ['person', first.userId, null]);
    assert.ok(panelsOf(dashboard).some((p) => p.widgetId === 'dashboard-activity'));
    assert.ok(panelsOf(dashboard).every((p) => p.readable === true));
    assert.equal((await mine(first.token)).body.id, dashboard.body.id, 'the same dashboard on the next use');
    const activity = expectStatus(await w.call(first.token, 'GET', '/widgets/dashboard-activity/datos'), 200);
    assert.ok(((activity.body.data as Json).personal as number) >= 1, 'the dashboards widget counts it');
    const outsider = await w.memberWith(['colaboradores:read']);
    expectStatus(await w.call(outsider.token, 'GET', '/widgets/tableros/mio'), 403, 'forbidden');
  });

  it('creates the company default with widgets:write only, once; first use then copies it without unreadable widgets', async () => {
    const panels = [
      panel(),
      ...(restricted ? [panel({ panelId: 'clinical', widgetId: restricted.id, position: { x: 6, y: 0, w: 6, h: 4 } })] : []),
    ];
    const body = { scope: 'company', title: 'Unit', panels };
    expectStatus(await w.call(reader.token, 'POST', '/widgets/tableros', { json: body }), 403, 'forbidden');
    const bad = await w.call(w.a, 'POST', '/widgets/tableros', { json: { ...body, panels: [panel({ widgetId: 'no-such-widget' })] } });
    assert.deepEqual(pointers(expectStatus(bad, 422)), ['/body/panels/0/widgetId']);
    const created = expectStatus(await w.call(w.a, 'POST', '/widgets/tableros', { json: body }), 201);
    assert.deepEqual([created.body.scope, created.body.ownerUserId, created.body.version], ['company', null, 0]);
    expectStatus(await w.call(w.a, 'POST', '/widgets/tableros', { json: body }), 409, 'already-exists');

    const copy = await mine(reader.token);
    assert.equal(copy.body.copiedFrom, created.body.id);
    assert.equal(copy.body.title, 'Unit');
    assert.deepEqual(
      panelsOf(copy).map((p) => p.widgetId),
      ['dashboard-activity'],
      'the widget the reader may not read is left out',
    );
    if (restricted) {
      const shown = expectStatus(await w.call(reader.token, 'GET', `/widgets/tableros/${String(created.body.id)}`), 200);
      assert.deepEqual(
        panelsOf(shown).map((p) => [p.widgetId, p.readable]),
        [
          ['dashboard-activity', true],
          [restricted.id, false],
        ],
      );
    }
    const list = expectStatus(await w.call(reader.token, 'GET', '/widgets/tableros'), 200);
    assert.deepEqual(
      (list.body.items as Json[]).map((d) => d.scope),
      ['company', 'person'],
    );
  });

  it("the dashboards widget never names another person's dashboard, its title or its owner", async () => {
    const theirs = await mine(other.token);
    const json = { title: 'Private watchlist', panels: [panel()] };
    const headers = { 'if-match': theirs.headers.get('etag')! };
    const saved = expectStatus(await w.call(other.token, 'PUT', `/widgets/tableros/${String(theirs.body.id)}`, { json, headers }), 200);
    const minPosition = saved.headers.get('x-event-position')!;
    const activity = expectStatus(await w.call(reader.token, 'GET', `/widgets/dashboard-activity/datos?minPosition=${minPosition}`), 200);
    const text = JSON.stringify(activity.body.data);
    for (const secret of [String(theirs.body.id), 'Private watchlist', other.userId]) assert.ok(!text.includes(secret), secret);
  });

  it('refuses a title with a control character, a bidirectional override or a lone surrogate (422 naming /body/title)', async () => {
    const dashboard = await mine(reader.token);
    const etag = dashboard.headers.get('etag')!;
    for (const title of ['Floor\u0000A', 'Floor\u202EA', 'Floor\uD800A']) {
      const refused = expectStatus(await put(reader.token, String(dashboard.body.id), { title, panels: [] }, etag), 422);
      assert.deepEqual(pointers(refused), ['/body/title'], JSON.stringify(title));
    }
    const company = await w.call(w.a, 'POST', '/widgets/tableros', { json: { scope: 'company', title: 'Unit\u202E', panels: [] } });
    assert.deepEqual(pointers(expectStatus(company, 422)), ['/body/title']);
  });

  it('saves a layout only with If-Match (428 without, 412 when changed), and keeps the history', async () => {
    const dashboard = await mine(reader.token);
    const id = String(dashboard.body.id);
    const etag = dashboard.headers.get('etag')!;
    const moved = { title: 'Mine', panels: [panel({ position: { x: 6, y: 1, w: 6, h: 3 } })], reason: 'wider' };
    expectStatus(await put(reader.token, id, moved), 428);
    const saved = expectStatus(await put(reader.token, id, moved, etag), 200);
    assert.deepEqual([saved.body.title, saved.body.version, panelsOf(saved)[0]!.position], ['Mine', 1, { x: 6, y: 1, w: 6, h: 3 }]);
    expectStatus(await put(reader.token, id, { panels: [] }, etag), 412);
    expectStatus(await put(reader.token, id, moved, etag), 412); // the same layout again, from the stale revision
    const history = expectStatus(await w.call(reader.token, 'GET', `/widgets/tableros/${id}/historial`), 200);
    assert.deepEqual(
      (history.body.items as Json[]).map((e) => [e.type, e.reason ?? null]),
      [
        ['DashboardCreated', null],
        ['DashboardLayoutSaved', 'wider'],
      ],
    );
  });

  it('refuses panels naming each field: unknown widget, a parameter it does not take, off the grid, too many', async () => {
    const dashboard = await mine(reader.token);
    const id = String(dashboard.body.id);
    const etag = dashboard.headers.get('etag')!;
    const wrong = await put(
      reader.token,
      id,
      {
        panels: [
          panel({ widgetId: 'no-such-widget' }),
          panel({ panelId: 'b', params: { date: '2026-01-01' } }),
          panel({ panelId: 'c', position: { x: 8, y: 0, w: 6, h: 2 } }),
        ],
      },
      etag,
    );
    assert.deepEqual(pointers(expectStatus(wrong, 422)), [
      '/body/panels/0/widgetId',
      '/body/panels/1/params/date',
      '/body/panels/2/position/w',
    ]);
    const grid = await put(reader.token, id, { panels: [panel({ position: { x: 12, y: 0, w: 13, h: 2 } })] }, etag);
    assert.deepEqual(pointers(expectStatus(grid, 422)), ['/body/panels/0/position/w', '/body/panels/0/position/x']);
    const many = Array.from({ length: 25 }, (_, i) => panel({ panelId: `p${i}` }));
    assert.deepEqual(pointers(expectStatus(await put(reader.token, id, { panels: many }, etag), 422)), ['/body/panels']);
  });

  it("answers 404 for another person's dashboard and another company's, and 403 on the company default without widgets:write", async () => {
    const theirs = await mine(other.token);
    const id = String(theirs.body.id);
    for (const [token, what] of [
      [reader.token, 'another person'],
      [w.b, 'another company'],
    ] as const) {
      expectStatus(await w.call(token, 'GET', `/widgets/tableros/${id}`), 404, 'not-found');
      expectStatus(await put(token, id, { panels: [] }, theirs.headers.get('etag')!), 404, 'not-found');
      expectStatus(await w.call(token, 'GET', `/widgets/tableros/${id}/historial`), 404, 'not-found');
      const list = expectStatus(await w.call(token, 'GET', '/widgets/tableros'), 200);
      assert.ok(!(list.body.items as Json[]).some((d) => d.id === id), `${what} does not list it`);
    }
    const company = (expectStatus(await w.call(reader.token, 'GET', '/widgets/tableros'), 200).body.items as Json[])[0]!;
    const current = expectStatus(await w.call(reader.token, 'GET', `/widgets/tableros/${String(company.id)}`), 200);
    const etag = current.headers.get('etag')!;
    expectStatus(await put(reader.token, String(company.id), { panels: [panel()] }, etag), 403, 'forbidden');
    const saved = expectStatus(await put(w.a, String(company.id), { title: 'Unit floor', panels: [panel()] }, etag), 200);
    assert.equal(saved.body.title, 'Unit floor');
  });
  it('a program (API client token) has no dashboard of its own: 403 people-only, and it lists the company default only', async () => {
    const created = expectStatus(await w.call(w.a, 'POST', '/integraciones', { json: { name: 'Wall screen', roles: ['admin'] } }), 201);
    const client = created.body.client as Json;
    const token = (await clientToken(w.server, String(client.id), String(created.body.clientSecret))).body.access_token as string;
    expectStatus(await w.call(token, 'GET', '/widgets/tableros/mio'), 403, 'people-only');
    const list = expectStatus(await w.call(token, 'GET', '/widgets/tableros'), 200);
    assert.deepEqual(
      (list.body.items as Json[]).map((d) => d.scope),
      ['company'],
    );
  });
});
