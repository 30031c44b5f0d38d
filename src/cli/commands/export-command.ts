import { Command, Option } from 'commander';
import { DEFAULT_FILE_MS, DEFAULT_FILE_ROWS } from '../export/run-export-defaults.js';
import { readExportOptions } from '../export/read-export-options.js';
import { addMonitoringOptions } from '../monitoring/add-monitoring-options.js';
import { addFilterOptions } from '../options/add-filter-options.js';
import { addRunOptions } from '../options/add-run-options.js';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { addSinkReadOptions } from '../sink/add-sink-read-options.js';

/** `ledger-rx export`: the commander layer over `runExport`. */
export function exportCommand(): Command {
  const command = new Command('export')
    .description(
      "Export the participant's updates to files for analytics, exactly once: Parquet tables updates and events (or " +
        'the elements as sent, NDJSON in zstd), Hive-partitioned by record date and named by offset range, ' +
        '<out>/<table>/record_date=YYYY-MM-DD/<first>-<last>.parquet; the files are the checkpoint: a restart ' +
        'resumes after the last range every table completed',
    )
    .summary('export updates to Parquet files (exactly once)');
  command
    .addOption(new Option('--out <dir>', 'the export directory (created if missing; one exporter at a time)'))
    .addOption(new Option('--format <format>', 'parquet, or ndjson-zstd (the elements byte for byte as the participant sent them)').default('parquet'));
  addSourceOptions(command, true);
  addFilterOptions(command);
  addSinkReadOptions(command, {
    batch: String(DEFAULT_FILE_ROWS),
    batchMs: String(DEFAULT_FILE_MS),
    batchWhat: 'updates per file: a new file (per table and record date) every N updates',
    fromWhat:
      "where a new export starts: an offset, 'begin', 'end', or 'acs' (the active contracts at --at or the ledger end, then the updates); ignored once the directory holds files",
  });
  command
    .addOption(new Option('--at <offset>', 'with --from acs: the offset of the active-contract snapshot (default: the ledger end)'))
    .addOption(new Option('--file-mib <n>', "a new file once the updates' JSON text in it reaches N MiB").default('64'))
    .addOption(
      new Option(
        '--dar <file>',
        "typed tables (repeatable; Parquet only): a table template__<package-name>__<Module>__<Entity> per template of the DAR's main package, one column per payload field in its Parquet type",
      ).argParser((value: string, previous: string[] = []) => [...previous, value]),
    );
  addRunOptions(command);
  addMonitoringOptions(command);
  command
    .addHelpText(
      'after',
      `
Examples:
  ledger-rx export --out ./ledger --url http://localhost:7575 --token-file jwt --party Alice::1220…
  ledger-rx export --out ./ledger --sandbox --to end
  ledger-rx export --out ./ledger --url http://localhost:7575 --token-file jwt --any-party --dar app.dar
  duckdb -c "select kind, count(*) from read_parquet('ledger/events/**/*.parquet', hive_partitioning = true) where record_date = date '2026-11-27' group by all"

Exactly once: the files are the checkpoint. Every range of offsets is written as one file per table, each
to a temporary name, fsynced and renamed; a restart resumes after the last range that every table completed,
deleting temporary files and the files of a range that was not complete everywhere.

Typed tables (--dar): created events of a template of a DAR's main package also go to its table, with the
columns offset, update_id, node_id, kind, contract_id, package_id, record_time, then one per payload field:
Numeric n as DECIMAL(38,n), Int as INT64, Date as DATE, Time as TIMESTAMP (µs, UTC), Bool as BOOLEAN,
Text/Party/ContractId/enums as strings, records as structs, lists as lists; variants, maps and
Optional (Optional a) as JSON text. Templates no DAR declares are in events only. The set of typed tables
is fixed when an export starts: a restart must give DARs that declare the same templates.

Needs the optional
packages hyparquet-writer and @toondepauw/node-zstd (npm install hyparquet-writer @toondepauw/node-zstd).
${exitCodesHelp}`,
    )
    .action(commandAction(async (values, _args, io) => (await import('../export/run-export.js')).runExport(readExportOptions(values), io)));
  return command;
}
