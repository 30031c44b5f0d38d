import type { SqlQueryable } from '../../checkpoints/sql-database.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import { openStoreDatabase } from './open-store-database.js';
import type { StoreMaintenanceOptions } from './store-maintenance-options.js';

const identifier = /^[a-z_][a-z0-9_]*$/;
const durationUnits: Record<string, string> = { s: 'seconds', m: 'minutes', h: 'hours', d: 'days' };

/** Rolls the dry run back while keeping its result. */
class DryRun extends Error {
  constructor(readonly result: Record<string, unknown>) {
    super('dry run');
  }
}

/** The offset `--archived-before` means: the offset itself, or one past the last update recorded before the time. */
async function pruningPoint(tx: SqlQueryable, spec: string): Promise<number> {
  if (/^\d+$/.test(spec)) return Number(spec);
  const duration = /^(\d+)([smhd])$/.exec(spec);
  let sql: string;
  let value: string;
  if (duration) {
    sql = `SELECT least(nearest_offset(now() - $1::interval) + 1, latest_offset()) AS p`;
    value = `${duration[1]} ${durationUnits[duration[2] as string]}`;
  } else if (!Number.isNaN(Date.parse(spec))) {
    sql = `SELECT least(nearest_offset($1::timestamptz) + 1, latest_offset()) AS p`;
    value = spec;
  } else {
    throw new UsageError(`--archived-before takes an offset, an ISO-8601 time or a duration (30d, 12h, 90m, 45s), got '${spec}'`);
  }
  const row = (await tx.query<{ p: string | number }>(sql, [value])).rows[0];
  return Number(row?.p);
}

const numbers = (row: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, v === null ? null : Number(v)]));

/**
 * `ledger-rx store prune`, `store redact` and `store reset` on the store `ingest` fills (`--pg`, else the embedded one in
 * `--data-dir`), each in one transaction with `lock_timeout` 1 s (a lock it would wait for longer fails the
 * command instead of stalling an ingester; the functions touch only rows an ingester does not write, see
 * docs/query-store.md "Maintenance"), printing one JSON line of what it did:
 *
 * - `prune`: `ledger_rx_prune_archived_before(stream, point)`; without `apply` the same work rolled back (a dry
 *   run with exact counts);
 * - `redact`: `ledger_rx_redact_contract(stream, contract, redactionId)`;
 * - `reset`: `ledger_rx_reset_to(stream, to)` (an ingester still running stops at its next commit).
 *
 * Exit 0; 2 for bad usage or an argument the store refuses (an offset it does not hold, an active contract);
 * 1 when the store cannot be opened or a statement fails otherwise.
 */
export async function runStoreMaintenance(action: 'prune' | 'redact' | 'reset', options: StoreMaintenanceOptions, io: CliIo): Promise<ExitCode> {
  let close: (() => Promise<void>) | undefined;
  try {
    const schema = options.schema ?? 'public';
    const stream = options.streamName ?? 'default';
    if (!identifier.test(schema)) throw new UsageError(`--schema must be a plain lower-case SQL identifier, got '${schema}'`);
    if (action === 'prune' && options.archivedBefore === undefined) throw new UsageError('store prune needs --archived-before OFFSET|TIME|DURATION');
    if (action === 'reset' && (options.to === undefined || !/^\d+$/.test(options.to))) throw new UsageError(`store reset needs --to OFFSET (a non-negative integer)${options.to === undefined ? '' : `, got '${options.to}'`}`);
    if (action === 'redact' && (options.contract === undefined || options.redactionId === undefined)) throw new UsageError('store redact needs --contract ID and --redaction-id ID');
    const store = await openStoreDatabase({ pg: options.pg, dataDir: options.dataDir, schema });
    close = () => store.close();
    let result: Record<string, unknown>;
    try {
      result = await store.database.transaction(async (tx) => {
        await tx.query(`SELECT set_config('lock_timeout', '1s', true), set_config('ledger_rx.stream', $1, true)`, [stream]);
        if (action === 'reset') {
          const row = numbers((await tx.query<Record<string, unknown>>('SELECT * FROM ledger_rx_reset_to($1, $2)', [stream, Number(options.to)])).rows[0]);
          return { stream, to: Number(options.to), ...row };
        }
        if (action === 'redact') {
          const row = (await tx.query<{ n: string | number }>('SELECT ledger_rx_redact_contract($1, $2, $3) AS n', [stream, options.contract, options.redactionId])).rows[0];
          return { stream, contract: options.contract, redactionId: options.redactionId, rows: Number(row?.n) };
        }
        const point = await pruningPoint(tx, options.archivedBefore as string);
        const counts = numbers((await tx.query<Record<string, unknown>>('SELECT * FROM ledger_rx_prune_archived_before($1, $2)', [stream, point])).rows[0]);
        const done = { stream, archivedBefore: point, dryRun: options.apply !== true, ...counts };
        if (options.apply !== true) throw new DryRun(done);
        return done;
      });
    } catch (error) {
      if (!(error instanceof DryRun)) throw error;
      result = error.result;
    }
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return ExitCode.OK;
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    const sqlState = (error as { code?: unknown }).code;
    return typeof sqlState === 'string' && (sqlState.startsWith('42') || sqlState === '22023') ? ExitCode.USAGE : exitCodeFor(error);
  } finally {
    await close?.().catch(() => undefined);
  }
}
