import type { JsGetUpdatesResponse } from '../schemas/updates.js';

/** The W3C trace headers an update carries (its `traceContext`), as a propagation carrier. */
export interface UpdateTraceHeaders {
  readonly traceparent: string;
  readonly tracestate?: string;
}

const traceparentPattern = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-.*)?$/;

/**
 * The trace context the submitter's command left on an update (`traceContext` of a `Transaction`,
 * `Reassignment` or `TopologyTransaction`): its `traceparent` (and `tracestate`), or `undefined` for an
 * offset checkpoint, an unknown variant, an update without one, or a `traceparent` that is not of the W3C
 * form. `updateContext` (`ledger-rx/tracing`) turns it into an OpenTelemetry context.
 */
export function updateTraceContext(element: JsGetUpdatesResponse): UpdateTraceHeaders | undefined {
  const update = (element as { update?: Record<string, { value?: { traceContext?: unknown } } | undefined> } | null | undefined)?.update;
  if (typeof update !== 'object' || update === null) return undefined;
  for (const key of ['Transaction', 'Reassignment', 'TopologyTransaction']) {
    const trace = update[key]?.value?.traceContext;
    if (typeof trace !== 'object' || trace === null) continue;
    const { traceparent, tracestate } = trace as { traceparent?: unknown; tracestate?: unknown };
    if (typeof traceparent !== 'string' || !traceparentPattern.test(traceparent)) return undefined;
    return typeof tracestate === 'string' && tracestate !== '' ? { traceparent, tracestate } : { traceparent };
  }
  return undefined;
}
