import { Command, Option } from 'commander';
import { addMonitoringOptions } from '../monitoring/add-monitoring-options.js';
import { addFilterOptions } from '../options/add-filter-options.js';
import { addRunOptions } from '../options/add-run-options.js';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { readIngestOptions } from '../ingest/read-ingest-options.js';
import { addSinkReadOptions } from '../sink/add-sink-read-options.js';

/** `ledger-rx ingest`: the commander layer over `runIngest`. */
export function ingestCommand(): Command {
  const command = new Command('ingest')
    .description(
      'Load the participant\'s updates into PostgreSQL, exactly once — a server (--pg) or, with no set-up, the embedded ' +
        'one in --data-dir (default ./ledger-rx-data; look with `ledger-rx sql`): tables updates, created_events, archived_events ' +
        '(acs-delta) or exercised_events (ledger-effects), reassignment_events and active_contracts, created by ' +
        'versioned migrations; each batch is committed with its checkpoint in one transaction',
    )
    .summary('ingest updates into PostgreSQL, a server or embedded (exactly once)');
  command
    .addOption(new Option('--pg <url>', 'PostgreSQL server URL (default: $LEDGER_RX_PG_URL; without either, the embedded PostgreSQL)'))
    .addOption(new Option('--data-dir <dir>', 'directory of the embedded PostgreSQL (PGlite), used when there is no --pg').default(undefined, './ledger-rx-data'));
  addSourceOptions(command, true);
  addFilterOptions(command);
  command
    .addOption(new Option('--schema <name>', 'schema of the tables (created if needed)').default('public'))
    .addOption(new Option('--stream-name <name>', 'name of the stream: its checkpoint row and the stream_name of its rows').default('default'));
  addSinkReadOptions(command, {
    batch: '1000',
    batchMs: '500',
    batchWhat: 'elements per transaction (and snapshot rows per statement)',
    fromWhat:
      "where a new stream starts: an offset, 'begin' (on a pruned participant: its active contracts at the pruning offset, then the updates), " +
      "'end', or 'acs' (the active contracts at --at or the ledger end, then the updates); ignored once it has a position",
  });
  command.addOption(new Option('--at <offset>', 'with --from acs: the offset of the active-contract snapshot (default: the ledger end)'));
  command.addOption(
    new Option(
      '--dar <file>',
      'typed views (repeatable): an SQL view "Module.Entity" per template and interface of the DAR\'s main package, the active contracts with one column per field in its SQL type',
    ).argParser((value: string, previous: string[] = []) => [...previous, value]),
  );
  command
    .addOption(new Option('--lock-wait-ms <ms>', 'wait this long for another process ingesting the same stream (embedded: using the same --data-dir)').default('15000'))
    .addOption(new Option('--standby', 'when another process ingests the stream, wait (not ready) and take over once its session ends, instead of exiting'))
    .addOption(new Option('--lock-lease-ms <ms>', 'a leader silent this long (hung, cut off) loses the stream lock to a standby').default('10000'));
  addRunOptions(command);
  addMonitoringOptions(command);
  command
    .addHelpText(
      'after',
      `
Examples:
  ledger-rx ingest --sandbox --to end                         no set-up: into ./ledger-rx-data, then: ledger-rx sql "select count(*) from updates"
  ledger-rx ingest --pg postgres://localhost/pqs --url http://localhost:7575 --token-file jwt --party Alice::1220…
  ledger-rx ingest --pg … --sandbox --shape ledger-effects --stream-name effects --to end --stats
  ledger-rx ingest --pg … --url … --party Alice::1220… --from acs   the active contracts now, then every update after them
  ledger-rx ingest --sandbox --dar app.dar --to end             then: ledger-rx sql 'select owner, amount from "Main.Iou"'
${exitCodesHelp}`,
    )
    .action(commandAction(async (values, _args, io) => (await import('../ingest/run-ingest.js')).runIngest(readIngestOptions(values, io.env), io)));
  return command;
}
