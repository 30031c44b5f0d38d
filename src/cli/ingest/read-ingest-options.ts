import { flagValues } from '../options/flag-values.js';
import { UsageError } from '../options/usage-error.js';
import { readSinkReadOptions } from '../sink/read-sink-read-options.js';
import { defaultDataDir } from './default-data-dir.js';
import type { IngestOptions } from './ingest-options.js';

/**
 * Turns the commander values of `ledger-rx ingest` into {@link IngestOptions}; throws `UsageError`
 * (exit 2) for a malformed value, for both `--pg` and `--data-dir`, or for `--at` without `--from acs`
 * (`--from acs` is read here: the other commands' `--from` has no snapshot). The store is the server of `--pg`
 * (else of `LEDGER_RX_PG_URL` in `env`), else the embedded PostgreSQL in `--data-dir` (default
 * `./ledger-rx-data`); an explicit `--data-dir` wins over the environment variable.
 */
export function readIngestOptions(values: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>> = {}): IngestOptions {
  const { str, int } = flagValues(values);
  const fromAcs = str('from')?.trim().toLowerCase() === 'acs';
  const at = int('at', '--at', 0);
  if (at !== undefined && !fromAcs) throw new UsageError('--at OFFSET is the offset of the active-contract snapshot: give it with --from acs');
  const dataDir = str('dataDir');
  if (str('pg') !== undefined && dataDir !== undefined) throw new UsageError('give either --pg URL (a PostgreSQL server) or --data-dir DIR (the embedded one), not both');
  const pgUrl = dataDir === undefined ? (str('pg') ?? (env['LEDGER_RX_PG_URL'] || undefined)) : undefined;
  return {
    ...readSinkReadOptions(fromAcs ? { ...values, from: undefined } : values),
    fromAcs,
    at,
    pg: pgUrl,
    dataDir: pgUrl === undefined ? (dataDir ?? defaultDataDir) : undefined,
    schema: str('schema'),
    streamName: str('streamName'),
    lockWaitMs: int('lockWaitMs', '--lock-wait-ms', 0),
    standby: values['standby'] === true,
    lockLeaseMs: int('lockLeaseMs', '--lock-lease-ms', 1_000),
    dars: Array.isArray(values['dar']) ? (values['dar'] as unknown[]).filter((d): d is string => typeof d === 'string' && d !== '') : [],
  };
}
