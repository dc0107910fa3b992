// One trace follows a request into its consequences (issue 27 item 3): the events process managers append for a session
// that a traced request ended (the machine's use, the consequence records) carry the request's trace id, in a new span.
import assert from 'node:assert/strict';
import { expectStatus, startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { SESSION_CONSEQUENCES_ACTOR } from '../../src/processes/sessionConsequences.js';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const traceparent = `00-${CALLER_TRACE}-b7ad6b7169203331-01`;

describe('Trace context into the consequences of a request', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  it("the events a process manager appends for a traced session end carry the request's trace id", async () => {
    const { path, machineId } = await s.startedSession(await s.prescribedPatient());
    const ended = expectStatus(await s.post(w.nurse.token, `${path}/fin`, {}, { traceparent }), 200);
    const requestSpan = ended.headers.get('traceparent')!.split('-')[2];
    await s.processed(ended);
    const events = await w.server.services.events.readAll();
    const endEvent = events.find((e) => e.type === 'SessionEnded' && e.metadata.traceId === CALLER_TRACE);
    assert.ok(endEvent, 'the end itself is in the trace');
    const caused = events.filter((e) => e.metadata.causationId === endEvent.id && e.metadata.actor.startsWith('process:'));
    assert.ok(
      caused.some((e) => e.streamName.endsWith(machineId)),
      `the machine's use is among ${caused.map((e) => e.type).join()}`,
    );
    assert.ok(caused.some((e) => e.metadata.actor === SESSION_CONSEQUENCES_ACTOR && e.type === 'ConsequenceApplied'));
    for (const e of caused) {
      assert.equal(e.metadata.traceId, CALLER_TRACE, `${e.type} on ${e.streamName} (${e.metadata.actor})`);
      assert.match(e.metadata.spanId ?? '', /^[0-9a-f]{16}$/);
      assert.notEqual(e.metadata.spanId, requestSpan, 'a span of its own, not the request one');
    }
  });
});
