import { Command, Option } from 'commander';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `ledger-rx sql QUERY` (alias `query`): the commander layer over `runSql`. */
export function sqlCommand(): Command {
  const command = new Command('sql')
    .alias('query')
    .description('Print the result of a query on the tables `ingest` wrote: the embedded PostgreSQL in --data-dir, or a server with --pg')
    .summary('query what ingest stored (a table, or NDJSON)')
    .argument('<query...>', 'the SQL, e.g. "select count(*) from updates"')
    .addOption(new Option('--data-dir <dir>', 'directory of the embedded PostgreSQL').default(undefined, './ledger-rx-data'))
    .addOption(new Option('--pg <url>', 'a PostgreSQL server instead (default: $LEDGER_RX_PG_URL when --data-dir is not given)'))
    .addOption(new Option('--schema <name>', 'the schema ingest wrote to (search_path)').default('public'))
    .addOption(new Option('--format <format>', 'table: aligned, for people; ndjson: one JSON object per row').choices(['table', 'ndjson']).default('table'))
    .addHelpText(
      'after',
      `
Examples:
  ledger-rx sql "select count(*) from updates"
  ledger-rx sql "select template_id, count(*) from active_contracts group by 1 order by 2 desc"
  ledger-rx sql --format ndjson "select * from updates order by ledger_offset desc limit 5" | jq .

The embedded database serves one process at a time: stop a running \`ingest\` on the same --data-dir first.
${exitCodesHelp}`,
    )
    .action(
      commandAction(async (values, args, io) => {
        const dataDir = str(values['dataDir']);
        const env = io.env['LEDGER_RX_PG_URL'];
        const { runSql } = await import('../sql/run-sql.js');
        return runSql(
          {
            query: args.join(' '),
            pg: str(values['pg']) ?? (dataDir === undefined && env ? env : undefined),
            dataDir,
            schema: str(values['schema']),
            format: values['format'] === 'ndjson' ? 'ndjson' : 'table',
          },
          io,
        );
      }),
    );
  return command;
}
