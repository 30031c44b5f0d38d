import { Option, type Command } from 'commander';

/**
 * Adds the range, batching and read flags `ingest` and `publish` share (`--from`, `--to`, `--batch`,
 * `--batch-ms`, `--page-limit`, `--idle-timeout-ms`, `--max-retries`), with the command's batch defaults
 * and words (`fromWhat`: the command's own `--from` help); `readSinkReadOptions` reads them back.
 */
export function addSinkReadOptions(
  command: Command,
  defaults: { readonly batch: string; readonly batchMs: string; readonly batchWhat: string; readonly fromWhat?: string },
): Command {
  return command
    .addOption(new Option('--from <offset>', defaults.fromWhat ?? "where a new stream starts: an offset, 'begin' or 'end' (ignored once it has a position)").default(undefined, 'begin'))
    .addOption(new Option('--to <offset>', "stop after this offset, or 'end' (the ledger end at start); default: forever"))
    .addOption(new Option('--batch <n>', defaults.batchWhat).default(defaults.batch))
    .addOption(new Option('--batch-ms <ms>', 'hand over a partial batch at most this long after its first element').default(defaults.batchMs))
    .addOption(new Option('--page-limit <n>', 'elements per request while catching up (lowered by itself after a 413)').default('200'))
    .addOption(new Option('--idle-timeout-ms <ms>', 'stream_idle_timeout_ms of catch-up requests (raised by itself for a participant slow to its first element)').default('20'))
    .addOption(new Option('--max-retries <n>', 'retries of a failing request before giving up with exit 4').default('10'));
}
