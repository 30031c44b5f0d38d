import { Command, Option } from 'commander';
import { addMonitoringOptions } from '../monitoring/add-monitoring-options.js';
import { addFilterOptions } from '../options/add-filter-options.js';
import { addRunOptions } from '../options/add-run-options.js';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { readIngestOptions } from '../ingest/read-ingest-options.js';
import { runIngest } from '../ingest/run-ingest.js';
import { processIoWithLogger } from '../process/process-io-with-logger.js';

/** `ledger-rx ingest`: the commander layer over `runIngest`. */
export function ingestCommand(): Command {
  const command = new Command('ingest')
    .description(
      'Load the participant\'s updates into PostgreSQL, exactly once: tables updates, created_events, archived_events\n' +
        '(acs-delta) or exercised_events (ledger-effects), reassignment_events and active_contracts, created by\n' +
        'versioned migrations; each batch is committed with its checkpoint in one transaction',
    )
    .summary('ingest updates into PostgreSQL (exactly once)');
  command.addOption(new Option('--pg <url>', 'PostgreSQL connection URL (default: $LEDGER_RX_PG_URL)'));
  addSourceOptions(command, true);
  addFilterOptions(command);
  command
    .addOption(new Option('--schema <name>', 'schema of the tables (created if needed)').default('public'))
    .addOption(new Option('--stream-name <name>', 'name of the stream: its checkpoint row and the stream_name of its rows').default('default'))
    .addOption(new Option('--from <offset>', "where a new stream starts: an offset, 'begin' or 'end' (ignored once it has a checkpoint)").default(undefined, 'begin'))
    .addOption(new Option('--to <offset>', "stop after this offset, or 'end' (the ledger end at start); default: forever"))
    .addOption(new Option('--batch <n>', 'elements per transaction').default('1000'))
    .addOption(new Option('--batch-ms <ms>', 'commit a partial batch at most this long after its first element').default('500'))
    .addOption(new Option('--page-limit <n>', 'elements per request while catching up (lowered by itself after a 413)').default('200'))
    .addOption(new Option('--idle-timeout-ms <ms>', 'stream_idle_timeout_ms of catch-up requests (raised by itself for a participant slow to its first element)').default('20'))
    .addOption(new Option('--max-retries <n>', 'retries of a failing request before giving up with exit 4').default('10'))
    .addOption(new Option('--lock-wait-ms <ms>', 'wait this long for another process ingesting the same stream').default('15000'));
  addRunOptions(command);
  addMonitoringOptions(command);
  command
    .addHelpText(
      'after',
      `
Examples:
  ledger-rx ingest --pg postgres://localhost/pqs --url http://localhost:7575 --token-file jwt --party Alice::1220…
  ledger-rx ingest --pg … --sandbox --shape ledger-effects --stream-name effects --to end --stats
${exitCodesHelp}`,
    )
    .action(commandAction(async (values) => runIngest(readIngestOptions(values, process.env), await processIoWithLogger(values))));
  return command;
}
