import type * as OtelApi from '@opentelemetry/api';
import { newTraceparent } from './traceparent.js';

/** Attributes of a request's span (OpenTelemetry attribute values: no nested objects). */
export type RequestAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** How a request ended, for its span. */
export interface RequestOutcome {
  /** The HTTP status of the answer (a `LedgerApiError`'s status is taken from the error). */
  readonly status?: number | undefined;
  /** The failure: the span's status is `ERROR`, `error.type` its `code` (else its name), the exception recorded. */
  readonly error?: unknown;
  /** The caller stopped listening (unsubscribed, left the loop): `ledger_rx.cancelled`, not an error. */
  readonly cancelled?: boolean | undefined;
  /** Added to the span before it ends. */
  readonly attributes?: RequestAttributes | undefined;
}

/** The trace of one request (see {@link traceRequest}). */
export interface RequestTrace {
  /** The W3C trace headers to send: `traceparent` always, `tracestate` (or another propagator's) when there is one. */
  readonly headers: Readonly<Record<string, string>>;
  /** Whether an OpenTelemetry SDK records the span: when not, attributes for {@link end} need not be computed. */
  readonly recording: boolean;
  /** Ends the span. Only the first call counts. */
  end(outcome?: RequestOutcome): void;
}

let api: typeof OtelApi | undefined;
let loading: Promise<typeof OtelApi> | undefined;

/** `@opentelemetry/api` is loaded by the first request that needs it, so `import 'ledger-rx'` does not load it. */
async function loadApi(): Promise<typeof OtelApi> {
  if (api) return api;
  loading ??= import('@opentelemetry/api').then((m) => (api = m));
  return loading;
}

/**
 * Where `@opentelemetry/api` 1.x keeps what an application registers (a tracer provider, a propagator, a
 * context manager, a diag logger): a property of the global object that the API creates at the first
 * registration. Until then every call of the API is a no-op.
 */
const registry = Symbol.for('opentelemetry.js.api.1');

/** The trace of a request while nothing is registered with OpenTelemetry: no span, a fresh traceparent. */
function untraced(): RequestTrace {
  return { headers: { traceparent: newTraceparent() }, recording: false, end: () => undefined };
}

function defined(attributes: RequestAttributes | undefined): OtelApi.Attributes {
  const out: OtelApi.Attributes = {};
  for (const [k, v] of Object.entries(attributes ?? {})) if (v !== undefined) out[k] = v;
  return out;
}

function field(error: unknown, name: 'code' | 'status'): unknown {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[name] : undefined;
}

/**
 * Starts the span of one request to the participant through `@opentelemetry/api` (kind `CLIENT`, a child of
 * the active context, named like `POST /v2/updates`) and returns the W3C trace headers to send with it.
 *
 * With an OpenTelemetry SDK registered the headers are the registered propagator's (the span's context); if
 * the propagator wrote no `traceparent` (none registered, or another format), one is made from the span's
 * context. Without an SDK every call of the API is a no-op and the `traceparent` is a fresh random one, not
 * sampled, so every request still carries one and the participant's logs and error bodies name its trace id.
 * While nothing at all is registered with the API (no SDK, propagator or context manager), that is what this
 * returns without loading the API (the same headers, no span); the first call after a registration loads it.
 * Never throws for tracing reasons.
 */
export async function traceRequest(name: string, attributes: RequestAttributes): Promise<RequestTrace> {
  if (api === undefined && !(registry in globalThis)) return untraced();
  const { context, propagation, trace, SpanKind, SpanStatusCode, isSpanContextValid } = await loadApi();
  const parent = context.active();
  const span = trace.getTracer('ledger-rx').startSpan(name, { kind: SpanKind.CLIENT, attributes: defined(attributes) }, parent);
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(parent, span), headers);
  if (headers['traceparent'] === undefined) {
    const own = span.spanContext();
    headers['traceparent'] = isSpanContextValid(own)
      ? `00-${own.traceId}-${own.spanId}-${(own.traceFlags & 1).toString(16).padStart(2, '0')}`
      : newTraceparent();
  }
  const recording = span.isRecording();
  let ended = false;
  return {
    headers,
    recording,
    end(outcome = {}) {
      if (ended) return;
      ended = true;
      if (recording) {
        span.setAttributes(defined(outcome.attributes));
        const { error } = outcome;
        const status = outcome.status ?? field(error, 'status');
        if (typeof status === 'number') span.setAttribute('http.response.status_code', status);
        if (outcome.cancelled) span.setAttribute('ledger_rx.cancelled', true);
        if (error !== undefined) {
          const code = field(error, 'code');
          span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown');
          if (error instanceof Error) span.recordException(error);
          span.setStatus({ code: SpanStatusCode.ERROR, ...(error instanceof Error ? { message: error.message } : {}) });
        } else if (typeof status === 'number' && status >= 400) {
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      }
      span.end();
    },
  };
}
