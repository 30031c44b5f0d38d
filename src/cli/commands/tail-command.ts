import { Command, Option } from 'commander';
import { addMonitoringOptions } from '../monitoring/add-monitoring-options.js';
import { addFilterOptions } from '../options/add-filter-options.js';
import { addFormatOption } from '../options/add-format-option.js';
import { addRunOptions } from '../options/add-run-options.js';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { readTailOptions } from '../tail/read-tail-options.js';

/** `ledger-rx tail`: the commander layer over `runTail` (flags → `readTailOptions` → `runTail`). */
export function tailCommand(): Command {
  const command = new Command('tail')
    .description(
      "Write the participant's updates: on a terminal one readable line per update, elsewhere NDJSON, one element per line as the API returns it",
    )
    .summary('tail the update stream (a readable view on a terminal, NDJSON elsewhere)');
  addSourceOptions(command, true);
  addFilterOptions(command);
  command
    .addOption(new Option('--from <offset>', "start after this offset, or 'begin' / 'end' (only new updates)").default(undefined, 'begin'))
    .addOption(new Option('--to <offset>', "stop after this offset, or 'end' (the ledger end at start); default: tail forever"))
    .addOption(new Option('--descending', 'newest first (history up to --to, default the ledger end); use with --limit'))
    .addOption(new Option('--limit <n>', 'stop after n updates (with --descending: the newest n)'))
    .addOption(new Option('--page-limit <n>', 'elements per request while catching up (lowered by itself after a 413)').default('200'))
    .addOption(new Option('--idle-timeout-ms <ms>', 'stream_idle_timeout_ms of catch-up requests (raised by itself for a participant slow to its first element)').default('20'))
    .addOption(new Option('--long-poll-ms <ms>', 'long-poll timeout once caught up').default('5000'))
    .addOption(new Option('--max-retries <n>', 'retries of a failing request before giving up with exit 4').default('10'))
    .addOption(new Option('--checkpoint <file>', 'resume after the offset in this file; saved after the output is flushed'))
    .addOption(new Option('--checkpoint-pg <url>', 'keep the checkpoint in PostgreSQL (with --stream-name)'))
    .addOption(new Option('--stream-name <name>', 'name of the checkpoint row in --checkpoint-pg'))
    .addOption(new Option('--checkpoint-every <n>', 'save the checkpoint every n elements').default('100'))
    .addOption(new Option('--checkpoint-every-ms <ms>', 'save the checkpoint at least this often while data flows').default('1000'))
    .addOption(new Option('--checkpoints', 'also write OffsetCheckpoint elements (muted lines in the readable view)'))
    .addOption(new Option('-o, --out <file>', 'write to this file instead of stdout (with a checkpoint: appended to, resumed after its last line)'));
  addFormatOption(command);
  addRunOptions(command);
  addMonitoringOptions(command);
  command
    .addHelpText(
      'after',
      `
Examples:
  ledger-rx tail --sandbox                                   live demo: the embedded sandbox with a workload
  ledger-rx tail --sandbox --format ndjson | jq .            the elements as JSON (the default in a pipe)
  ledger-rx tail --url http://localhost:7575 --token-file jwt --party Alice::1220… --to end
  ledger-rx tail --url … --descending --limit 10             the newest 10 updates
  ledger-rx tail --url … --checkpoint tail.ckpt --out updates.ndjson   resumable, no gap, no duplicate

Output: on a terminal, one readable line per update (--format pretty) with a status line at the bottom;
in a pipe or a file, NDJSON as the API returned it (--format ndjson). Colours follow NO_COLOR and FORCE_COLOR.

Delivery with a checkpoint:
  --out FILE  no gap, no duplicate, also across kill -9: the read resumes after the greater of the
              checkpoint and the offset of the file's last complete line (a torn last line is cut off)
  stdout      at least once across kill -9: the lines written after the last save (every
              --checkpoint-every elements / --checkpoint-every-ms) are written again by the next run
  SIGINT/SIGTERM never repeats a line: the checkpoint then covers every line written
${exitCodesHelp}`,
    )
    .action(commandAction(async (values, _args, io) => (await import('../tail/run-tail.js')).runTail(readTailOptions(values), io)));
  return command;
}
