import { BehaviorSubject, lastValueFrom, tap } from 'rxjs';
import { buildUpdateFormat } from '../options/build-update-format.js';
import { UsageError } from '../options/usage-error.js';
import { chooseOutputFormat } from '../output/choose-output-format.js';
import { LineWriter } from '../output/line-writer.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { activeContractsSnapshot } from '../../operators/active-contracts-snapshot.js';
import { elementText } from '../../updates/element-text.js';
import { createCommandLogger } from '../log/create-command-logger.js';
import { statusLogger } from '../log/status-logger.js';
import { runClientCommand } from '../ops/run-client-command.js';
import type { AcsOptions } from './acs-options.js';
import { firstContact } from '../source/first-contact.js';
import { retryStartupCall } from '../source/retry-startup-call.js';

/**
 * `ledger-rx acs`: the active contracts at one offset (`--at`, default the ledger end), read with
 * `activeContractsSnapshot` over `--transport` (resumed at the same offset after failures). NDJSON writes each
 * entry as the participant sent it (byte for byte), the human view one line per contract in `tail`'s compact
 * style (`contractEntryRow`); while the output is full the WebSocket is not read (backpressure). Ends with one line on
 * stderr: how many entries, at which offset. Each retry — of the start-up's ledger end (a wrong address fails fast
 * instead, see `retryStartupCall`) and of the read — is logged as a warning on stderr, as `tail` does
 * (`statusLogger`), as is a fallback to another transport. Exit codes as for the one-shot commands: 2 for bad flags (an `--at`
 * after the ledger end included), 3 for a server error (an offset before the pruning offset), 4 retries
 * exhausted.
 */
export async function runAcs(options: AcsOptions, io: CliIo): Promise<ExitCode> {
  const updateFormat = buildUpdateFormat(options.filter);
  const eventFormat = updateFormat.includeTransactions?.eventFormat;
  if (eventFormat == null) throw new UsageError('acs needs a party or --any-party');
  const format = chooseOutputFormat(options.format, { stdoutIsTTY: io.stdoutIsTTY === true, out: undefined });
  // the terminal libraries load only for the human view
  const view = format === 'pretty' ? await import('./acs-view.js') : undefined;
  const render = view?.contractEntryRenderer(io);
  // warnings only: acs has no --log-level, and its info (the transport read over) would be noise
  const onStatus = statusLogger(createCommandLogger(io, 'warn', undefined, view?.logPaint(io)), () => undefined);
  return runClientCommand(options.source, io, async (client, _print, source) => {
    // The first request, failing fast on a wrong address (see retryStartupCall); other failures retried, each logged.
    const end = (await retryStartupCall((signal) => client.ledgerEnd({ signal }), { onStatus, firstContact: firstContact(options.source, source) })).offset ?? 0;
    // As for tail's --from: an offset the ledger has not reached is a usage error, not something to wait for.
    if (options.at !== undefined && options.at > end) throw new UsageError(`--at ${options.at} is after the ledger end (${end})`);
    const writer = new LineWriter(io.stdout);
    let at: number | undefined;
    let count = 0;
    // Backpressure: while the output is full, the WebSocket is not read (TCP pushes back on the participant).
    const paused = new BehaviorSubject(false);
    const read = activeContractsSnapshot(
      client,
      { eventFormat, ...(options.at === undefined ? {} : { activeAtOffset: options.at }) },
      { transport: options.transport ?? 'websocket', rawText: format === 'ndjson', onActiveAtOffset: (offset) => (at = offset), paused, onStatus },
    );
    await lastValueFrom(
      read.pipe(
        tap((entry) => {
          count++;
          const line = render === undefined ? (elementText(entry) ?? JSON.stringify(entry)) : render(entry);
          if (!writer.writeLine(`${line}\n`) && !paused.value) {
            paused.next(true);
            writer.drained().then(
              () => paused.next(false),
              () => paused.next(false),
            );
          }
        }),
      ),
      { defaultValue: undefined },
    );
    await writer.flush();
    if (writer.error) throw writer.error;
    io.stderr.write(`${count} ${count === 1 ? 'entry' : 'entries'} at offset ${at ?? '?'}\n`);
  });
}
