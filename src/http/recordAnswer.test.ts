// recordAnswer: the write answer every record group shares (status, view, ETag, X-Event-Position, Location on 201).
import assert from 'node:assert/strict';
import { recordAnswer, type RecordAnswerModel } from './recordAnswer.js';
import type { RequestContext } from './routeTypes.js';

type Doc = { id: string; name: string; revision: number; _position: number };
const ctx = {} as RequestContext;
const seen: unknown[] = [];
const model: RecordAnswerModel<Doc> = {
  latest: async (_scope, id, result) => {
    seen.push(result);
    return { id, name: 'Fresenius', revision: 3, _position: 41 };
  },
  view: (doc) => ({ id: doc.id, name: doc.name }),
  location: (id) => `/monitores/${id}`,
};

describe('recordAnswer', () => {
  it('answers a 201 with the view, the ETag of the revision, the write position and the Location', async () => {
    const answer = await recordAnswer(ctx, model, 'm1', { revision: 3, position: 42n }, 201);
    assert.deepEqual(answer, {
      status: 201,
      body: { id: 'm1', name: 'Fresenius' },
      headers: { ETag: 'W/"3"', 'X-Event-Position': '42', Location: '/monitores/m1' },
    });
    assert.deepEqual(seen.at(-1), { revision: 3, position: 42n });
  });

  it("sends no Location on a 200, and the document's position when the write decided nothing", async () => {
    const answer = await recordAnswer(ctx, model, 'm1', { revision: 3, position: null }, 200);
    assert.deepEqual(answer.headers, { ETag: 'W/"3"', 'X-Event-Position': '41' });
    assert.equal(answer.status, 200);
  });

  it('takes a Location named by the caller whatever the status, and adds extra fields to the view', async () => {
    const answer = await recordAnswer(ctx, model, 'm1', { revision: 3, position: 42n }, 200, {
      location: '/elsewhere/1',
      extra: { createdId: 'r9' },
    });
    assert.deepEqual(answer.body, { id: 'm1', name: 'Fresenius', createdId: 'r9' });
    assert.equal(answer.headers?.Location, '/elsewhere/1');
  });
});
