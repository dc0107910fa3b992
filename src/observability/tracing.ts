// OpenTelemetry spans, only when an OTLP endpoint is configured: the SDK is then loaded and a tracer kept here (never
// registered as the global provider); otherwise withSpan() runs its function as it is and nothing of the SDK loads.
// The parent of a span is passed in (the request's or command's trace), as the correlation id is.
import type { Attributes, Span, SpanKind, Tracer } from '@opentelemetry/api';
import type { TraceContext } from './traceContext.js';

interface Sdk {
  tracer: Tracer;
  api: typeof import('@opentelemetry/api');
  shutdown(): Promise<void>;
}

let sdk: Sdk | null = null;

/** Whether spans are recorded (an OTLP endpoint was configured at start). */
export const tracingEnabled = (): boolean => sdk !== null;

/** Starts the exporter to `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT: the base URL, /v1/traces is added). Idempotent. */
export async function startTracing(endpoint: string, serviceName = 'dialysis-records'): Promise<void> {
  if (sdk) return;
  const [api, base, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new otlp.OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new base.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new base.BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  sdk = { tracer: provider.getTracer('dialysis-records'), api, shutdown: () => provider.shutdown() };
}

/** Sends what is buffered and stops the exporter (at shutdown). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  await running?.shutdown();
}

/** A span as child of `parent` (the caller's remote span, or the current trace's span). */
function startChild(s: Sdk, name: string, parent: TraceContext | undefined, kind: SpanKind, attributes?: Attributes, remote = false): Span {
  const { api } = s;
  let context = api.ROOT_CONTEXT;
  const spanId = remote ? parent?.parentSpanId : parent?.spanId;
  if (parent && spanId) {
    context = api.trace.setSpanContext(context, {
      traceId: parent.traceId,
      spanId,
      traceFlags: parent.flags === '01' ? api.TraceFlags.SAMPLED : api.TraceFlags.NONE,
      isRemote: remote,
      ...(parent.tracestate ? { traceState: api.createTraceState(parent.tracestate) } : {}),
    });
  }
  return s.tracer.startSpan(name, { kind, ...(attributes ? { attributes } : {}) }, context);
}

/**
 * The request's server span: continues the caller's trace (or a new one), and its ids become the request's trace.
 * null when tracing is off: the request keeps the trace built from its headers.
 */
export function startRequestSpan(name: string, trace: TraceContext, attributes: Attributes): { span: Span; trace: TraceContext } | null {
  if (!sdk) return null;
  const span = startChild(sdk, name, trace.parentSpanId ? trace : undefined, sdk.api.SpanKind.SERVER, attributes, true);
  const ids = span.spanContext();
  return { span, trace: { ...trace, traceId: ids.traceId, spanId: ids.spanId } };
}

/**
 * Runs `fn` inside a child span of `parent` (a new trace without one): command, append, projection batch. `fn` gets the
 * trace its own children hang from. Tracing off: just `fn(parent)`.
 */
export function withSpan<T>(
  name: string,
  parent: TraceContext | undefined,
  fn: (trace: TraceContext | undefined) => Promise<T>,
  attributes?: Attributes,
): Promise<T> {
  // Not an async function: with tracing off the caller awaits `fn`'s own promise, not one more tick around it.
  return sdk ? spanned(sdk, name, parent, fn, attributes) : fn(parent);
}

async function spanned<T>(
  sdk: Sdk,
  name: string,
  parent: TraceContext | undefined,
  fn: (trace: TraceContext | undefined) => Promise<T>,
  attributes?: Attributes,
): Promise<T> {
  const span = startChild(sdk, name, parent, sdk.api.SpanKind.INTERNAL, attributes);
  const ids = span.spanContext();
  const inner: TraceContext = parent
    ? { ...parent, spanId: ids.spanId }
    : { traceId: ids.traceId, spanId: ids.spanId, parentSpanId: null, flags: '01', tracestate: null };
  try {
    return await fn(inner);
  } catch (err) {
    span.setStatus({ code: sdk.api.SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}
