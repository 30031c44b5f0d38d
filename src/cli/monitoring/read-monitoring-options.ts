import { parseIntegerFlag } from '../options/parse-integer-flag.js';
import { UsageError } from '../options/usage-error.js';
import type { MonitoringOptions } from './monitoring-options.js';

/**
 * Reads the flags of `addMonitoringOptions` from commander's values; throws `UsageError` (exit 2) for a
 * port outside 0–65535, an empty host, or a stall time below 1 s.
 */
export function readMonitoringOptions(values: Readonly<Record<string, unknown>>): MonitoringOptions {
  const port = typeof values['metricsPort'] === 'string' ? parseIntegerFlag('--metrics-port', values['metricsPort'], 0) : undefined;
  if (port !== undefined && port > 65_535) throw new UsageError(`--metrics-port must be at most 65535, got ${port}`);
  const host = typeof values['metricsHost'] === 'string' ? values['metricsHost'] : undefined;
  if (host !== undefined && host.trim() === '') throw new UsageError('--metrics-host must not be empty');
  const stall = typeof values['stallAfter'] === 'string' ? parseIntegerFlag('--stall-after', values['stallAfter'], 1) : undefined;
  return { metricsPort: port, metricsHost: host, stallAfterSeconds: stall };
}
