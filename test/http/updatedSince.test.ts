// Lists accept `updatedSince` (issue 24 item 1) over real HTTP: records made at T1, one of each changed at T2, and
// `?updatedSince=T2` answers only the changed one in kit lists (machines, clients) and others (patients); pages keep it.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startClientesWorld, unique, type Answer, type ClientesWorld, type Json } from './clientesWorld.js';

const MINUTE = 60_000;

describe('Lists accept updatedSince over HTTP', () => {
  let w: ClientesWorld;
  /** Per list: the records made at T1 and the one changed at T2. */
  const made: Record<string, { ids: string[]; changed: string }> = {};
  let t1 = '';
  let t2 = '';
  let minPosition = '';

  const get = (path: string, token = w.a): Promise<Answer> => w.call(token, 'GET', path);
  const since = (instant: string): string => `updatedSince=${encodeURIComponent(instant)}`;
  const positionOf = (answer: Answer): string => answer.headers.get('x-event-position')!;

  before(async () => {
    w = await startClientesWorld();
    t1 = w.server.clock.now().toISOString();
    const patients = [await w.patient(w.a), await w.patient(w.a)];
    const machines = [(await w.register(w.a)).body.id as string, (await w.register(w.a)).body.id as string];
    const clients = [(await w.client(w.a)).body.id as string, (await w.client(w.a)).body.id as string];
    w.server.clock.advance(MINUTE);
    t2 = w.server.clock.now().toISOString();
    const change = async (path: string, json: Json): Promise<Answer> =>
      expectStatus(await w.call(w.a, 'PATCH', path, { json, headers: { 'if-match': 'W/"0"' } }), 200);
    await change(`/pacientes/${patients[1]}`, { etiology: 'hypertension', reason: 'referral letter' });
    await change(`/monitores/${machines[1]}`, { model: '5008S', reason: 'typo' });
    minPosition = positionOf(await change(`/clientes/${clients[1]}`, { tradeName: unique('Renal '), reason: 'rebranding' }));
    made['/pacientes'] = { ids: patients, changed: patients[1]! };
    made['/monitores'] = { ids: machines, changed: machines[1]! };
    made['/clientes'] = { ids: clients, changed: clients[1]! };
  });
  after(async () => w?.close());

  for (const list of ['/pacientes', '/monitores', '/clientes']) {
    it(`${list}?updatedSince=T2 answers only the record changed at T2; T1 answers both`, async () => {
      const { ids, changed } = made[list]!;
      const later = expectStatus(await get(`${list}?${since(t2)}&minPosition=${minPosition}&limit=200`), 200).body;
      assert.deepEqual(
        later.items.map((r: Json) => r.id),
        [changed],
      );
      const all = expectStatus(await get(`${list}?${since(t1)}&limit=200`), 200).body;
      const found = all.items.map((r: Json) => r.id as string);
      for (const id of ids) assert.ok(found.includes(id), `${list} since T1 holds ${id}`);
      const future = new Date(Date.parse(t2) + MINUTE).toISOString();
      assert.deepEqual(expectStatus(await get(`${list}?${since(future)}`), 200).body.items, []);
    });
  }

  it('takes any RFC 3339 offset: the same instant written +01:00 answers the same', async () => {
    const instant = new Date(Date.parse(t2) + 60 * MINUTE).toISOString().replace('Z', '+01:00');
    const items = expectStatus(await get(`/monitores?${since(instant)}`), 200).body.items;
    assert.deepEqual(
      items.map((r: Json) => r.id),
      [made['/monitores']!.changed],
    );
  });

  it('pages keep the filter: the cursor is sealed to it, and another updatedSince refuses it', async () => {
    const seen: string[] = [];
    let page = expectStatus(await get(`/pacientes?${since(t1)}&limit=1`), 200).body;
    seen.push(...page.items.map((r: Json) => r.id as string));
    const cursor = page.nextCursor as string;
    assert.ok(cursor, 'more than one page since T1');
    expectStatus(await get(`/pacientes?${since(t2)}&limit=1&cursor=${encodeURIComponent(cursor)}`), 400);
    expectStatus(await get(`/pacientes?limit=1&cursor=${encodeURIComponent(cursor)}`), 400);
    while (page.nextCursor) {
      page = expectStatus(await get(`/pacientes?${since(t1)}&limit=1&cursor=${encodeURIComponent(page.nextCursor as string)}`), 200).body;
      seen.push(...page.items.map((r: Json) => r.id as string));
    }
    assert.deepEqual(seen.sort(), [...made['/pacientes']!.ids].sort());
  });

  it('a history list keeps the entries at or after the instant', async () => {
    const id = made['/monitores']!.changed;
    const all = expectStatus(await get(`/monitores/${id}/historial`), 200).body.items;
    const later = expectStatus(await get(`/monitores/${id}/historial?${since(t2)}`), 200).body.items;
    assert.equal(all.length, 2);
    assert.deepEqual(
      later.map((e: Json) => e.type),
      [all[1].type],
    );
  });

  it('another company sees none of them', async () => {
    const items = expectStatus(await get(`/monitores?${since(t1)}`, w.b), 200).body.items as Json[];
    assert.ok(!items.some((r) => made['/monitores']!.ids.includes(r.id as string)));
  });

  it('a value that is not an RFC 3339 date-time is a 422 naming /query/updatedSince', async () => {
    for (const bad of ['yesterday', '2026-11-26', '2026-11-26T10:00:00']) {
      const answer = expectStatus(await get(`/clientes?updatedSince=${encodeURIComponent(bad)}`), 422);
      assert.deepEqual(pointers(answer), ['/query/updatedSince']);
    }
  });
});
