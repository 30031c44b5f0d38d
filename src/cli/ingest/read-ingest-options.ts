import { parseIntegerFlag } from '../options/parse-integer-flag.js';
import { UsageError } from '../options/usage-error.js';
import { readSinkReadOptions } from '../sink/read-sink-read-options.js';
import type { IngestOptions } from './ingest-options.js';

/**
 * Turns the commander values of `ledger-rx ingest` into {@link IngestOptions}; throws `UsageError`
 * (exit 2) for a malformed value or a missing `--pg` (also taken from `LEDGER_RX_PG_URL` via `env`).
 */
export function readIngestOptions(values: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>> = {}): IngestOptions {
  const str = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  const pgUrl = str('pg') ?? env['LEDGER_RX_PG_URL'];
  if (!pgUrl) throw new UsageError('give --pg URL (or set LEDGER_RX_PG_URL): the PostgreSQL database to ingest into');
  const lockWait = str('lockWaitMs');
  const lease = str('lockLeaseMs');
  return {
    ...readSinkReadOptions(values),
    pg: pgUrl,
    schema: str('schema'),
    streamName: str('streamName'),
    lockWaitMs: lockWait === undefined ? undefined : parseIntegerFlag('--lock-wait-ms', lockWait, 0),
    standby: values['standby'] === true,
    lockLeaseMs: lease === undefined ? undefined : parseIntegerFlag('--lock-lease-ms', lease, 1_000),
  };
}
