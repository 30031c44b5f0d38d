import type { LedgerClient } from '../../client/ledger-client.js';
import type { CliIo } from '../process/cli-io.js';
import { createCommandLogger } from '../log/create-command-logger.js';
import type { LogLevel } from '../log/log-level.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import type { LedgerSource } from '../source/ledger-source.js';
import { openLedgerSource } from '../source/open-ledger-source.js';
import type { SourceOptions } from '../options/source-options.js';

/**
 * Runs a one-shot operator command: opens the source (`--url`, token flags), calls `work` with the
 * client, a function that writes text to stdout and the opened source, closes the client, and resolves with the exit code.
 * An error is printed on stderr with `describeError` (code, cause, correlation id) and mapped with
 * `exitCodeFor` (2 for a request rejected before sending, 3 for a server error).
 */
export async function runClientCommand(
  source: SourceOptions,
  io: CliIo,
  work: (client: LedgerClient, print: (text: string) => void, source: LedgerSource) => Promise<void>,
  logLevel: LogLevel = 'warn',
): Promise<ExitCode> {
  const logger = createCommandLogger(io, logLevel);
  let opened: LedgerSource | undefined;
  try {
    opened = await openLedgerSource(source, { env: io.env, logger });
    await work(opened.client, (text) => io.stdout.write(text.endsWith('\n') ? text : `${text}\n`), opened);
    return ExitCode.OK;
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return exitCodeFor(error);
  } finally {
    await opened?.close().catch(() => undefined);
  }
}
