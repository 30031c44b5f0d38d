import { filter, lastValueFrom, takeUntil, tap } from 'rxjs';
import { isCompletionCheckpoint } from '../../completions/is-completion-checkpoint.js';
import { tailCompletions } from '../../operators/tail-completions.js';
import { elementText } from '../../updates/element-text.js';
import { createCommandLogger } from '../log/create-command-logger.js';
import { statusLogger } from '../log/status-logger.js';
import { runClientCommand } from '../ops/run-client-command.js';
import { chooseOutputFormat } from '../output/choose-output-format.js';
import { LineWriter } from '../output/line-writer.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { listenForStopSignals } from '../process/listen-for-stop-signals.js';
import { firstContact } from '../source/first-contact.js';
import { retryStartupCall } from '../source/retry-startup-call.js';
import type { CompletionsCliOptions } from './completions-cli-options.js';

/**
 * `ledger-rx completions`: tails the command completions of `--party` (every party without one) from `--from`
 * (default: the ledger end, read first — with the start-up's fail-fast on a wrong address, see
 * `retryStartupCall`) with `tailCompletions` — endless, resumed after failures, every completion once in
 * offset order — as NDJSON (the participant's bytes, checkpoints included) or the human view
 * (`prettyCompletion`, one row per completion; checkpoints are not shown, as in `tail`'s). Retries and the
 * transport are logged at `--log-level`. Runs until SIGINT/SIGTERM (exit 0, the output flushed). Exit codes as
 * for `tail`: 2 bad flags, 3 a server error that cannot be retried, 4 retries exhausted or no participant at
 * the address.
 */
export async function runCompletions(options: CompletionsCliOptions, io: CliIo): Promise<ExitCode> {
  const format = chooseOutputFormat(options.format, { stdoutIsTTY: io.stdoutIsTTY === true, out: undefined });
  const level = options.logLevel ?? 'info';
  // the terminal libraries load only for the human view
  const view = format === 'pretty' ? await import('./completion-view.js') : undefined;
  const logger = createCommandLogger(io, level, undefined, view?.logPaint(io));
  const stops = listenForStopSignals(io.signals, logger, () => io.forceExit?.());
  try {
    return await runClientCommand(
      options.source,
      io,
      async (client, _print, source) => {
        const writer = new LineWriter(io.stdout);
        const onStatus = statusLogger(logger, () => undefined);
        const end = await retryStartupCall((signal) => client.ledgerEnd({ signal }), { onStatus, signal: stops.signal, firstContact: firstContact(options.source, source) });
        const beginExclusive = options.from === 'end' ? (end.offset ?? 0) : options.from;
        const read = tailCompletions(client, {
          ...(options.parties.length === 0 ? {} : { parties: options.parties }),
          beginExclusive,
          transport: options.transport ?? 'auto',
          rawText: format === 'ndjson',
          onStatus,
        });
        const render = view?.completionRenderer(io);
        await lastValueFrom(
          read.pipe(
            takeUntil(stops.stop$),
            filter((element) => render === undefined || !isCompletionCheckpoint(element)),
            tap((element) => {
              const line = render === undefined ? (elementText(element) ?? JSON.stringify(element)) : render(element);
              writer.writeLine(`${line}\n`);
            }),
          ),
          { defaultValue: undefined },
        );
        await writer.flush();
        if (writer.error) throw writer.error;
      },
      level,
    );
  } finally {
    stops.dispose();
  }
}
