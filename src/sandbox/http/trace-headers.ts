import type { IncomingHttpHeaders } from 'node:http';
import { traceparentPattern } from './create-request-handler.js';


/**
 * The W3C trace context a submission carries into its transaction's `traceContext`: a valid
 * `traceparent` header (and `tracestate`, if sent); none without a valid `traceparent`.
 */
export function traceHeaders(headers: IncomingHttpHeaders): { traceparent: string | undefined; tracestate: string | undefined } {
  const parent = typeof headers.traceparent === 'string' ? headers.traceparent.trim() : undefined;
  if (parent === undefined || !traceparentPattern.test(parent)) return { traceparent: undefined, tracestate: undefined };
  const state = headers.tracestate;
  return { traceparent: parent, tracestate: typeof state === 'string' && state !== '' ? state : undefined };
}
