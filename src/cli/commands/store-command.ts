import { Command, Option } from 'commander';
import type { ScopeEdit } from '../../sinks/postgres/edit-scope.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The store a command works on: `--pg` (or `$LEDGER_RX_PG_URL` when no `--data-dir` is given), `--data-dir`, `--schema`, `--stream-name`. */
const storeTarget = (values: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>) => {
  const dataDir = str(values['dataDir']);
  const fromEnv = env['LEDGER_RX_PG_URL'];
  return {
    pg: str(values['pg']) ?? (dataDir === undefined && fromEnv ? fromEnv : undefined),
    dataDir,
    schema: str(values['schema']),
    streamName: str(values['streamName']),
  };
};

/** `ledger-rx store watch|prune|redact|reset|scope|index`: the commander layer over the store commands' cores (the query store's own commands; docs/query-store.md). */
export function storeCommand(): Command {
  const store = new Command('store').description('The query store ingest fills: watch its commits, prune it, redact a contract, change a stream\'s scope, index a template').summary('watch and maintain the store ingest fills');
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
        commandAction(async (values, _args, io) => {
          const { runStoreWatch } = await import('../store/run-store-watch.js');
          return runStoreWatch(
            {
              ...storeTarget(values, io.env),
              count: typeof values['count'] === 'number' ? values['count'] : undefined,
            },
            io,
          );
        }),
      ),
  );
  const where = (c: Command) =>
    c
      .addOption(new Option('--pg <url>', 'a PostgreSQL server (default: $LEDGER_RX_PG_URL when --data-dir is not given)'))
      .addOption(new Option('--data-dir <dir>', 'directory of the embedded PostgreSQL').default(undefined, './ledger-rx-data'))
      .addOption(new Option('--schema <name>', 'the schema ingest writes to').default('public'))
      .addOption(new Option('--stream-name <name>', 'the stream').default('default'));
  const maintenance = (action: 'prune' | 'redact' | 'reset') =>
    commandAction(async (values, _args, io) => {
      const { runStoreMaintenance } = await import('../store/run-store-maintenance.js');
      return runStoreMaintenance(
        action,
        {
          ...storeTarget(values, io.env),
          archivedBefore: str(values['archivedBefore']),
          apply: values['apply'] === true,
          contract: str(values['contract']),
          redactionId: str(values['redactionId']),
          to: str(values['to']),
        },
        io,
      );
    });
  store.addCommand(
    where(new Command('prune'))
      .description('Remove the contracts archived before a point, with their events (a dry run unless --apply); never blocks a running ingest')
      .addOption(new Option('--archived-before <point>', 'an offset, an ISO-8601 time, or a duration before now (30d, 12h, 90m)'))
      .addOption(new Option('--apply', 'delete (without it: the counts of a dry run)'))
      .addHelpText('after', `\nExamples:\n  ledger-rx store prune --archived-before 30d\n  ledger-rx store prune --archived-before 120000 --apply\n${exitCodesHelp}`)
      .action(maintenance('prune')),
  );
  store.addCommand(
    where(new Command('redact'))
      .description('Null the payload and key of an archived contract everywhere the store holds them, recording a redaction id')
      .addOption(new Option('--contract <id>', 'the archived contract'))
      .addOption(new Option('--redaction-id <id>', 'the id recorded with the redaction'))
      .action(maintenance('redact')),
  );
  store.addCommand(
    where(new Command('reset'))
      .description('Rewind a stream to an offset (rows after it removed, active_contracts as at it), to ingest again from there; stop ingest first')
      .addOption(new Option('--to <offset>', 'the offset to rewind to'))
      .action(maintenance('reset')),
  );
  const edits: ScopeEdit[] = [];
  const edit = (op: ScopeEdit['op'], kind: ScopeEdit['kind']) => (id: string) => {
    edits.push({ op, kind, id });
    return id;
  };
  store.addCommand(
    where(new Command('scope'))
      .description(
        "Change a stream's scope (its parties, templates, interfaces) while ingest runs: recorded in the store and pushed to the ingester, which " +
          'commits its batch, backfills what was added from the active contracts at its checkpoint, removes what was removed, and reads on with the new filter',
      )
      .addOption(new Option('--add-party <party>', 'add a party (repeatable)').argParser(edit('add', 'party')))
      .addOption(new Option('--remove-party <party>', 'remove a party (repeatable)').argParser(edit('remove', 'party')))
      .addOption(new Option('--add-template <id>', 'add a template #package-name:Module:Entity (repeatable)').argParser(edit('add', 'template')))
      .addOption(new Option('--remove-template <id>', 'remove a template (repeatable)').argParser(edit('remove', 'template')))
      .addOption(new Option('--add-interface <id>', 'add an interface #package-name:Module:Interface, with its views (repeatable)').argParser(edit('add', 'interface')))
      .addOption(new Option('--remove-interface <id>', 'remove an interface (repeatable)').argParser(edit('remove', 'interface')))
      .addOption(new Option('--wait', 'wait until the running ingester applied the change (a server only)'))
      .addHelpText(
        'after',
        `
Prints {"stream","scope","wanted"}: the scope stored now and the one asked for (null: nothing pending).
The flags apply in the order given. A restart of ingest with the same --party/--template flags keeps the
scope changed here; a restart with other flags sets the scope to theirs.

Examples:
  ledger-rx store scope --pg postgres://localhost/ledger --add-party 'Bob::1220…' --wait
  ledger-rx store scope --stream-name effects --add-template '#my-pkg:Main:Asset' --remove-template '#my-pkg:Main:Old'
${exitCodesHelp}`,
      )
      .action(
        commandAction(async (values, _args, io) => {
          const { runStoreScope } = await import('../store/run-store-scope.js');
          return runStoreScope(
            {
              ...storeTarget(values, io.env),
              edits,
              wait: values['wait'] === true,
            },
            io,
          );
        }),
      ),
  );
  store.addCommand(
    new Command('index')
      .addOption(new Option('--pg <url>', 'a PostgreSQL server (default: $LEDGER_RX_PG_URL when --data-dir is not given)'))
      .addOption(new Option('--data-dir <dir>', 'directory of the embedded PostgreSQL').default(undefined, './ledger-rx-data'))
      .addOption(new Option('--schema <name>', 'the schema ingest writes to').default('public'))
      .description(
        "Create an expression index on one template's active contracts (CONCURRENTLY on a server; named after the template and " +
          'the expression, so running it twice does nothing): EXPR is a column of its typed view, or SQL over active_contracts',
      )
      .addOption(new Option('--template <name>', 'the template: Entity, Module:Entity, package-name:Module:Entity, or its typed view "Module.Entity"'))
      .addOption(new Option('--expr <expr>', "a column of the template's typed view (owner), or an SQL expression over active_contracts (create_argument ->> 'owner')"))
      .addHelpText(
        'after',
        `
Examples:
  ledger-rx store index --template RichRecord --expr owner          serves: select … from "RichTypes.RichRecord" where owner = …
  ledger-rx store index --template Iou:Iou --expr "(create_argument ->> 'currency')"

EXPR is SQL by design (one expression; no ';' or comments): run it only as someone you would let run that SQL.
${exitCodesHelp}`,
      )
      .action(
        commandAction(async (values, _args, io) => {
          const { runStoreIndex } = await import('../store/run-store-index.js');
          return runStoreIndex(
            {
              ...storeTarget(values, io.env),
              template: str(values['template']),
              expr: str(values['expr']),
            },
            io,
          );
        }),
      ),
  );
  return store;
}
