import { flagValues } from '../options/flag-values.js';
import { readStreamFlags } from '../options/read-stream-flags.js';
import type { SinkReadOptions } from './sink-read-options.js';

/**
 * Reads the commander values shared by `ingest` and `publish` (source, filter, range, batching, run flags)
 * into {@link SinkReadOptions}; throws `UsageError` (exit 2) for a malformed value.
 */
export function readSinkReadOptions(values: Readonly<Record<string, unknown>>): SinkReadOptions {
  const { int } = flagValues(values);
  return {
    ...readStreamFlags(values),
    batch: int('batch', '--batch', 1),
    batchMs: int('batchMs', '--batch-ms', 1),
  };
}
