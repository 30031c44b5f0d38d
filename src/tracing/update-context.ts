import type { Context } from '@opentelemetry/api';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';
import { updateTraceContext } from '../updates/update-trace-context.js';
import { openTelemetryApi } from './opentelemetry-api.js';

const { context, propagation } = openTelemetryApi;

/**
 * The OpenTelemetry context of the submitter's trace of an update (its `traceContext`, see
 * `updateTraceContext`), on top of `parent` (default: the active context): run the handling of the update in
 * it, and its spans continue the trace of the command that made the update.
 *
 * ```ts
 * tailUpdates(client, { updateFormat }).subscribe((element) =>
 *   context.with(updateContext(element), () => tracer.startActiveSpan('book payment', (span) => { ...; span.end(); })),
 * );
 * ```
 *
 * Without an OpenTelemetry SDK (no propagator registered), or for an update without a valid trace context,
 * it returns `parent` unchanged.
 */
export function updateContext(element: JsGetUpdatesResponse, parent: Context = context.active()): Context {
  const carrier = updateTraceContext(element);
  return carrier ? propagation.extract(parent, carrier) : parent;
}
