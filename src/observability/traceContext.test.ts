// W3C Trace Context rules as given/when/then: which traceparent and tracestate headers are continued, which ignored.
import assert from 'node:assert/strict';
import { formatTraceparent, parseTraceparent, parseTracestate, traceFromHeaders } from './traceContext.js';
import { observabilitySettings } from './settings.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('traceparent', () => {
  it('a valid version-00 header is continued with the flags it carries', () => {
    assert.deepEqual(parseTraceparent(`00-${TRACE}-${SPAN}-01`), { traceId: TRACE, parentSpanId: SPAN, flags: '01' });
    assert.deepEqual(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.flags, '00');
  });

  it('a later version is read by its first four fields (W3C forward compatibility)', () => {
    assert.deepEqual(parseTraceparent(`01-${TRACE}-${SPAN}-03-more`), { traceId: TRACE, parentSpanId: SPAN, flags: '01' });
  });

  it('malformed ones are ignored: all-zero ids, version ff, upper case, wrong lengths, extra fields in 00', () => {
    for (const bad of [
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${TRACE.slice(1)}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      'garbage',
      '',
    ])
      assert.equal(parseTraceparent(bad), null, bad);
  });

  it('the service answers its own span in the caller trace; without a valid caller a new trace starts', () => {
    const continued = traceFromHeaders(`00-${TRACE}-${SPAN}-01`, 'congo=t61rcWkgMzE');
    assert.deepEqual([continued.traceId, continued.parentSpanId, continued.tracestate], [TRACE, SPAN, 'congo=t61rcWkgMzE']);
    assert.notEqual(continued.spanId, SPAN);
    assert.match(formatTraceparent(continued), new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    const fresh = traceFromHeaders('00-nonsense', 'congo=t61rcWkgMzE');
    assert.notEqual(fresh.traceId, TRACE);
    assert.deepEqual([fresh.parentSpanId, fresh.tracestate], [null, null], 'a tracestate without its traceparent is dropped');
  });
});

describe('tracestate', () => {
  it('a valid list passes on; an invalid member or an oversized list drops it whole', () => {
    assert.equal(parseTracestate('rojo=00f067aa0ba902b7, congo=t61rcWkgMzE'), 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
    assert.equal(parseTracestate('tenant@vendor=x'), 'tenant@vendor=x');
    assert.equal(parseTracestate('Upper=x'), null);
    assert.equal(parseTracestate('k=a,b'), null);
    assert.equal(parseTracestate(Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')), null);
  });
});

describe('observability settings', () => {
  it('metrics are off, the access log takes every request and tracing is off unless configured', () => {
    assert.deepEqual(observabilitySettings({}), {
      metricsPort: null,
      metricsToken: null,
      accessLog: 'all',
      accessLogSample: 1,
      otlpEndpoint: null,
    });
  });

  it('invalid values stop the start', () => {
    assert.throws(() => observabilitySettings({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN/);
    assert.throws(() => observabilitySettings({ METRICS_PORT: 'x' }), /METRICS_PORT/);
    assert.throws(() => observabilitySettings({ ACCESS_LOG: 'some' }), /ACCESS_LOG/);
    assert.throws(() => observabilitySettings({ ACCESS_LOG_SAMPLE: '1.5' }), /ACCESS_LOG_SAMPLE/);
  });
});
