import { lastValueFrom, takeUntil, tap } from 'rxjs';
import { tailCompletions } from '../../operators/tail-completions.js';
import { elementText } from '../../updates/element-text.js';
import { createCommandLogger } from '../log/create-command-logger.js';
import { runClientCommand } from '../ops/run-client-command.js';
import { chooseOutputFormat } from '../output/choose-output-format.js';
import { LineWriter } from '../output/line-writer.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { listenForStopSignals } from '../process/listen-for-stop-signals.js';
import type { CompletionsCliOptions } from './completions-cli-options.js';
import { prettyCompletion } from './pretty-completion.js';

/**
 * `ledger-rx completions`: tails the command completions of `--party` (every party without one) from `--from`
 * (default: the ledger end) with `tailCompletions` — endless, resumed after failures, every completion once
 * in offset order with the checkpoints that move the position — as NDJSON (the participant's bytes) or the
 * human view (`prettyCompletion`). Runs until SIGINT/SIGTERM (exit 0, the output flushed). Exit codes as for
 * `tail`: 2 bad flags, 3 a server error that cannot be retried, 4 retries exhausted.
 */
export async function runCompletions(options: CompletionsCliOptions, io: CliIo): Promise<ExitCode> {
  const format = chooseOutputFormat(options.format, { stdoutIsTTY: io.stdoutIsTTY === true, out: undefined });
  const stops = listenForStopSignals(io.signals, createCommandLogger(io, 'warn'), () => io.forceExit?.());
  try {
    return await runClientCommand(options.source, io, async (client) => {
      const writer = new LineWriter(io.stdout);
      const beginExclusive = options.from === 'end' ? 'ledger-end' : options.from;
      const read = tailCompletions(client, {
        ...(options.parties.length === 0 ? {} : { parties: options.parties }),
        beginExclusive,
        transport: options.transport ?? 'auto',
        rawText: format === 'ndjson',
      });
      await lastValueFrom(
        read.pipe(
          takeUntil(stops.stop$),
          tap((element) => {
            const line = format === 'ndjson' ? (elementText(element) ?? JSON.stringify(element)) : prettyCompletion(element, io.stdoutColumns?.());
            writer.writeLine(`${line}\n`);
          }),
        ),
        { defaultValue: undefined },
      );
      await writer.flush();
      if (writer.error) throw writer.error;
    });
  } finally {
    stops.dispose();
  }
}
