import { take } from 'rxjs';
import { watchCommittedOffsets } from '../../sinks/postgres/watch-committed-offsets.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import type { StoreWatchOptions } from './store-watch-options.js';

const identifier = /^[a-z_][a-z0-9_]*$/;

/**
 * `ledger-rx store watch`: prints one NDJSON line `{"stream":NAME,"offset":N}` per offset the stream commits on
 * the server of `pg` (`watchCommittedOffsets`: pushed by PostgreSQL's `LISTEN`/`NOTIFY`, the current checkpoint
 * first), strictly increasing, until SIGINT/SIGTERM (exit 0) or `count` offsets. A lost connection is reported on
 * stderr and opened again. The embedded store (`--data-dir`) is bad usage (exit 2): it serves the ingesting
 * process only, whose library helper watches it in process.
 */
export async function runStoreWatch(options: StoreWatchOptions, io: CliIo): Promise<ExitCode> {
  try {
    const schema = options.schema ?? 'public';
    const streamName = options.streamName ?? 'default';
    if (!identifier.test(schema)) throw new UsageError(`--schema must be a plain lower-case SQL identifier, got '${schema}'`);
    if (options.pg === undefined) {
      throw new UsageError(
        `store watch needs a PostgreSQL server (--pg URL or LEDGER_RX_PG_URL): the embedded store${options.dataDir === undefined ? '' : ` in ${options.dataDir}`} serves one process, the one that ingests; watch it there with watchCommittedOffsets`,
      );
    }
    if (options.count !== undefined && (!Number.isInteger(options.count) || options.count < 1)) throw new UsageError(`--count must be a positive integer, got ${options.count}`);
    const url = options.pg;
    await new Promise<void>((resolve, reject) => {
      const offsets = watchCommittedOffsets(
        { url },
        {
          schema,
          streamName,
          onStatus: (s) => {
            if (s.type === 'connection-lost') io.stderr.write(`connection lost (${describeError(s.error)}); listening again in ${s.retryInMs} ms\n`);
          },
        },
      );
      const subscription = (options.count === undefined ? offsets : offsets.pipe(take(options.count))).subscribe({
        next: (offset) => io.stdout.write(`${JSON.stringify({ stream: streamName, offset })}\n`),
        error: reject,
        complete: resolve,
      });
      const stop = () => {
        subscription.unsubscribe();
        resolve();
      };
      io.signals.on('SIGINT', stop);
      io.signals.on('SIGTERM', stop);
      subscription.add(() => {
        io.signals.off('SIGINT', stop);
        io.signals.off('SIGTERM', stop);
      });
    });
    return ExitCode.OK;
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return exitCodeFor(error);
  }
}
