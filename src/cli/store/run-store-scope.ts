import { resolve } from 'node:path';
import { concatMap, filter, firstValueFrom, Observable, takeUntil } from 'rxjs';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { SqlQueryable } from '../../checkpoints/sql-database.js';
import { requestScopeChange } from '../../sinks/postgres/request-scope-change.js';
import { sameScope, type StreamScope } from '../../sinks/postgres/stream-scope.js';
import { watchScopeRequests } from '../../sinks/postgres/watch-scope-requests.js';
import { buildUpdateFormat } from '../options/build-update-format.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import { defaultDataDir } from '../ingest/default-data-dir.js';
import { ScopeRequestFiles } from '../ingest/scope-request-files.js';
import { openStoreDatabase } from './open-store-database.js';
import type { StoreScopeOptions } from './store-scope-options.js';

const identifier = /^[a-z_][a-z0-9_]*$/;

interface ScopeRow {
  readonly scope: StreamScope;
  readonly wanted: StreamScope | null;
}

const readRow = async (db: SqlQueryable, schema: string, stream: string): Promise<ScopeRow | undefined> =>
  (await db.query<ScopeRow>(`SELECT scope, wanted FROM ${schema}.ledger_rx_stream_scopes WHERE stream_name = $1`, [stream])).rows[0];

/**
 * `ledger-rx store scope`: asks a stream to change its scope (`requestScopeChange`: the edits applied in order to the
 * scope already asked for, else the recorded one; recorded as `wanted` and notified on the stream's scope channel),
 * and prints one JSON line `{"stream","scope","wanted"}` (the scope stored now, the one asked for; `wanted` null: none
 * pending). A running `ingest` on the server applies it at its next batch boundary (docs/query-store.md, "Scope
 * changes without a re-seed"); with `wait` (server only) the command waits for that (pushed: `LISTEN` on the scope
 * channel, which the change's transaction notifies) and prints the line after it. On the embedded store (`dataDir`):
 * recorded in it when no process has it open (the next start of ingest with the same flags applies it); while an
 * ingest has it open, queued as a file in its directory (`ScopeRequestFiles`), which the running ingest takes at once,
 * and `{"stream","queued"}` printed (the file's name).
 *
 * Exit 0; 2 for bad usage, an id the filter builder refuses, an edit the scope refuses (`editScope`) or a stream with
 * no recorded scope; 1 when the store cannot be opened.
 */
export async function runStoreScope(options: StoreScopeOptions, io: CliIo): Promise<ExitCode> {
  let close: (() => Promise<void>) | undefined;
  try {
    const schema = options.schema ?? 'public';
    const stream = options.streamName ?? 'default';
    if (!identifier.test(schema)) throw new UsageError(`--schema must be a plain lower-case SQL identifier, got '${schema}'`);
    if (options.edits.length === 0) {
      throw new UsageError('store scope needs at least one of --add-party, --remove-party, --add-template, --remove-template, --add-interface, --remove-interface');
    }
    if (options.wait === true && options.pg === undefined) {
      throw new UsageError(
        "--wait needs a PostgreSQL server (--pg URL or LEDGER_RX_PG_URL): a running ingest owns the embedded store, so this process cannot see the change applied (the ingest logs 'scope changed')",
      );
    }
    const ids = (kind: string) => [...new Set(options.edits.filter((e) => e.kind === kind).map((e) => e.id))];
    // the ids as the filter builder takes them (a package id instead of a package name, a malformed id: exit 2)
    buildUpdateFormat({ parties: ids('party'), templates: ids('template'), interfaces: ids('interface') });
    let store;
    try {
      store = await openStoreDatabase({ pg: options.pg, dataDir: options.dataDir, schema });
    } catch (error) {
      if (options.pg !== undefined || !(error instanceof LedgerRxError) || error.code !== ErrorCodes.SINK_CONFLICT) throw error;
      // the embedded store is open in another process (an ingest): it takes requests as files in its directory
      const files = new ScopeRequestFiles(resolve(options.dataDir ?? defaultDataDir));
      const queued = await files.queue({ schema, streamName: stream, edits: options.edits });
      io.stderr.write(
        `the embedded store is open in another process (${error.message}); queued the request in ${files.dir}: a running ingest takes it at once (it watches that directory; kill -HUP makes it look), else the next start does\n`,
      );
      io.stdout.write(`${JSON.stringify({ stream, queued })}\n`);
      return ExitCode.OK;
    }
    close = () => store.close();
    const requested = await requestScopeChange(store.database, { schema, streamName: stream, edits: options.edits });
    let row: ScopeRow = requested;
    if (options.wait === true && requested.wanted !== null) {
      const wanted = requested.wanted;
      const stop = new Observable<void>((subscriber) => {
        const done = () => subscriber.next();
        io.signals.on('SIGINT', done);
        io.signals.on('SIGTERM', done);
        return () => {
          io.signals.off('SIGINT', done);
          io.signals.off('SIGTERM', done);
        };
      });
      const applied = watchScopeRequests({ url: options.pg as string }, { schema, streamName: stream }).pipe(
        concatMap(() => readRow(store.database, schema, stream)),
        // applied (nothing pending), or superseded by another request
        filter((r): r is ScopeRow => r !== undefined && (r.wanted === null || !sameScope(r.wanted, wanted))),
        takeUntil(stop),
      );
      row = (await firstValueFrom(applied, { defaultValue: undefined })) ?? row;
    }
    io.stdout.write(`${JSON.stringify({ stream, scope: row.scope, wanted: row.wanted })}\n`);
    return ExitCode.OK;
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return exitCodeFor(error);
  } finally {
    await close?.().catch(() => undefined);
  }
}
