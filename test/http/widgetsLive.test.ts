// A dashboard live over HTTP (issue 25, item 4, done-when): every readable panel on opening; a change its widget depends
// on gives one debounced push with the new data; after a disconnect, Last-Event-ID resumes with the panels that changed
// and never resends the unchanged ones; a layout change pushes the layout; the stream ends with its access token.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, type Json, type StaffWorld } from './staffWorld.js';
import { openSse, type SseClient, type SseMessage } from './sseClient.js';
import { LIMITS } from '../../src/limits.js';

const panel = (panelId: string, x: number): Json => ({
  panelId,
  widgetId: 'dashboard-activity',
  params: {},
  position: { x, y: 0, w: 6, h: 4 },
});
const data = (m: SseMessage): Json => JSON.parse(m.data) as Json;
const settle = (ms = 900) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Widgets over HTTP: a dashboard live (/widgets/tableros/{id}/eventos)', () => {
  let w: StaffWorld;
  let reader: { userId: string; token: string };
  let dashboardId: string;
  const open: SseClient[] = [];

  const sse = async (token: string, id: string, headers: Record<string, string> = {}) => {
    const client = await openSse(`${w.server.url}/widgets/tableros/${id}/eventos`, token, headers);
    open.push(client);
    return client;
  };
  /** Another person with their dashboard, ready to save it: the company's dashboard activity (what the panels show) changes. */
  const someoneElse = async () => {
    const member = await w.memberWith(['widgets:read']);
    const theirs = expectStatus(await w.call(member.token, 'GET', '/widgets/tableros/mio'), 200);
    return async (title: string) => {
      const json = { title, panels: [panel('a', 0)] };
      const headers = { 'if-match': theirs.headers.get('etag')! };
      expectStatus(await w.call(member.token, 'PUT', `/widgets/tableros/${String(theirs.body.id)}`, { json, headers }), 200);
    };
  };
  const someoneElseSaves = async (title: string) => (await someoneElse())(title);
  /** The company default saved again by the admin: the dashboards widget names its latest change (never a person's). */
  const companyDefaultSaves = async (title: string) => {
    const list = expectStatus(await w.call(w.a, 'GET', '/widgets/tableros'), 200);
    const id = String((list.body.items as Json[]).find((d) => d.scope === 'company')!.id);
    const current = expectStatus(await w.call(w.a, 'GET', `/widgets/tableros/${id}`), 200);
    const headers = { 'if-match': current.headers.get('etag')! };
    expectStatus(await w.call(w.a, 'PUT', `/widgets/tableros/${id}`, { json: { title, panels: [panel('a', 0)] }, headers }), 200);
  };

  before(async () => {
    w = await startStaffWorld();
    reader = await w.memberWith(['widgets:read']);
    const mine = expectStatus(await w.call(reader.token, 'GET', '/widgets/tableros/mio'), 200);
    dashboardId = String(mine.body.id);
    expectStatus(await w.call(w.a, 'POST', '/widgets/tableros', { json: { scope: 'company', title: 'Unit', panels: [] } }), 201);
    const json = { title: 'Live', panels: [panel('left', 0)] };
    expectStatus(
      await w.call(reader.token, 'PUT', `/widgets/tableros/${dashboardId}`, { json, headers: { 'if-match': mine.headers.get('etag')! } }),
      200,
    );
  });
  afterEach(async () => {
    for (const client of open.splice(0)) client.close();
    await settle(200);
  });
  after(async () => w?.close());

  it('sends every panel, then one debounced push per burst with the new data; resumes with only what changed', async () => {
    const stream = await sse(reader.token, dashboardId);
    assert.equal(stream.status, 200);
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    const [first] = await stream.until(1);
    assert.equal(stream.retry, 3000);
    assert.deepEqual([first!.event, data(first!).panelId, data(first!).widgetId], ['widget', 'left', 'dashboard-activity']);
    assert.equal(first!.id, (data(first!).asOf as Json).position);
    const before = data(first!).data as Json;

    // A burst of changes the widget depends on: one push, with the data after all of them.
    for (const i of [0, 1, 2]) {
      await companyDefaultSaves(`Burst ${i}`);
      await settle(150); // closer than the debounce: one burst
    }
    const [, pushed] = await stream.until(2);
    await settle();
    assert.equal(stream.messages.length, 2, 'one push for the burst');
    const after = data(pushed!).data as Json;
    assert.equal(after.personal, before.personal);
    assert.match(String((after.lastChange as Json).title), /^Burst/);
    assert.notDeepEqual(after, before);
    assert.ok(BigInt(pushed!.id!) > BigInt(first!.id!));

    // Something no panel depends on: nothing is pushed.
    await w.createPosition(w.a);
    await settle();
    assert.equal(stream.messages.length, 2);

    // Away: the widget's data changes; back with Last-Event-ID, the changed panel arrives (once, current).
    stream.close();
    await stream.ended;
    await someoneElseSaves('While away');
    const resumed = await sse(reader.token, dashboardId, { 'last-event-id': pushed!.id! });
    const [again] = await resumed.until(1);
    assert.equal(data(again!).panelId, 'left');
    assert.equal((data(again!).data as Json).personal, (after.personal as number) + 1);
    await settle();
    assert.equal(resumed.messages.length, 1);

    // Away while nothing the panel depends on changes: back, the unchanged panel is not resent.
    resumed.close();
    await resumed.ended;
    await w.createPosition(w.a);
    const quiet = await sse(reader.token, dashboardId, { 'last-event-id': again!.id! });
    await settle();
    assert.equal(quiet.status, 200);
    assert.deepEqual(quiet.messages, [], 'no panel changed');
    await someoneElseSaves('Live again');
    const [live] = await quiet.until(1);
    assert.equal((data(live!).data as Json).personal, (after.personal as number) + 2, 'and it is live');
  });

  it('pushes the layout when the dashboard changes, then the new panels', async () => {
    const stream = await sse(reader.token, dashboardId);
    await stream.until(1);
    const current = expectStatus(await w.call(reader.token, 'GET', `/widgets/tableros/${dashboardId}`), 200);
    const json = { panels: [panel('left', 0), panel('right', 6)] };
    const headers = { 'if-match': current.headers.get('etag')! };
    expectStatus(await w.call(reader.token, 'PUT', `/widgets/tableros/${dashboardId}`, { json, headers }), 200);
    const messages = await stream.until(3);
    assert.equal(messages[1]!.event, 'layout');
    assert.deepEqual(
      ((data(messages[1]!).panels as Json[]) ?? []).map((p) => p.panelId),
      ['left', 'right'],
    );
    await settle();
    const widgets = stream.messages
      .slice(2)
      .map((m) => data(m).panelId)
      .sort();
    assert.deepEqual(widgets, ['right'], 'the new panel only: the unchanged one is not resent');
  });

  it("answers 404 for another person's or company's dashboard, and ends with the access token", async () => {
    const other = await w.memberWith(['widgets:read']);
    const theirs = String(expectStatus(await w.call(other.token, 'GET', '/widgets/tableros/mio'), 200).body.id);
    assert.equal((await sse(reader.token, theirs)).status, 404);
    assert.equal((await sse(w.b, dashboardId)).status, 404);

    const late = await w.memberWith(['widgets:read']);
    const lateId = String(expectStatus(await w.call(late.token, 'GET', '/widgets/tableros/mio'), 200).body.id);
    w.server.clock.advance(LIMITS.accessToken.ttlSeconds * 1000 - 1_500);
    const stream = await sse(late.token, lateId);
    assert.equal(stream.status, 200);
    const began = Date.now();
    await stream.ended;
    assert.ok(Date.now() - began < 4_000, `ended after ${Date.now() - began} ms`);
    await w.refreshSessions();
  });
  it('ends when the service shuts down, without waiting for the client', async () => {
    const other = await startStaffWorld();
    try {
      const id = String(expectStatus(await other.call(other.a, 'GET', '/widgets/tableros/mio'), 200).body.id);
      const stream = await openSse(`${other.server.url}/widgets/tableros/${id}/eventos`, other.a);
      await stream.until(1);
      const began = Date.now();
      await other.close();
      await stream.ended;
      assert.ok(Date.now() - began < 3_000, `closed in ${Date.now() - began} ms`);
    } finally {
      await other.close();
    }
  });

  it('refuses a Last-Event-ID beyond the log, and a person without widgets:read', async () => {
    const fresh = await w.memberWith(['widgets:read']); // signed in after the clock moved on
    const id = String(expectStatus(await w.call(fresh.token, 'GET', '/widgets/tableros/mio'), 200).body.id);
    const beyond = await sse(fresh.token, id, { 'last-event-id': '999999999' });
    await beyond.ended;
    assert.equal(beyond.status, 422);
    assert.match(beyond.text(), /last-event-id/);
    const outsider = await w.memberWith(['colaboradores:read']);
    assert.equal((await sse(outsider.token, id)).status, 403);
  });
});
