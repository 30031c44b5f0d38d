/**
 * `ledger-rx/tracing`: W3C trace context through `@opentelemetry/api`. The client's requests are spans and
 * carry a `traceparent` on their own (nothing to import for that); this entry continues the trace of the
 * command that made an update (`updateContext`), and reads `traceparent` headers. It loads
 * `@opentelemetry/api`, which `import 'ledger-rx'` does not: an optional peer dependency of ledger-rx, without
 * which importing this entry point throws a `PeerDependencyMissingError` that names it (docs/packaging.md).
 *
 * @module ledger-rx/tracing
 */
export { parseTraceparent } from './traceparent.js';
export type { Traceparent } from './traceparent.js';
export { updateContext } from './update-context.js';
export { updateTraceContext } from '../updates/index.js';
export type { UpdateTraceHeaders } from '../updates/index.js';
