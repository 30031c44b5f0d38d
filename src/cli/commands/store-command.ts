import { Command, Option } from 'commander';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { processIo } from '../process/process-io.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `ledger-rx store watch`: the commander layer over `runStoreWatch` (the query store's own commands; docs/query-store.md). */
export function storeCommand(): Command {
  const store = new Command('store').description('The query store ingest fills: watch its commits').summary('watch the store ingest fills');
  store.addCommand(
    new Command('watch')
      .description('Print each offset a stream commits (NDJSON {"stream","offset"}), pushed by PostgreSQL LISTEN/NOTIFY: the current one first')
      .addOption(new Option('--pg <url>', 'the PostgreSQL server ingest writes to (default: $LEDGER_RX_PG_URL)'))
      .addOption(new Option('--data-dir <dir>', 'the embedded store (refused: it serves the ingesting process only)'))
      .addOption(new Option('--schema <name>', 'the schema ingest writes to').default('public'))
      .addOption(new Option('--stream-name <name>', 'the stream').default('default'))
      .addOption(new Option('--count <n>', 'stop after N offsets').argParser((v) => Number(v)))
      .addHelpText(
        'after',
        `
Examples:
  ledger-rx store watch --pg postgres://localhost/ledger
  ledger-rx store watch --stream-name effects | while read -r line; do ...; done
${exitCodesHelp}`,
      )
      .action(
        commandAction(async (values) => {
          const { runStoreWatch } = await import('../store/run-store-watch.js');
          const dataDir = str(values['dataDir']);
          const env = process.env['LEDGER_RX_PG_URL'];
          return runStoreWatch(
            {
              pg: str(values['pg']) ?? (dataDir === undefined && env ? env : undefined),
              dataDir,
              schema: str(values['schema']),
              streamName: str(values['streamName']),
              count: typeof values['count'] === 'number' ? values['count'] : undefined,
            },
            processIo(),
          );
        }),
      ),
  );
  return store;
}
