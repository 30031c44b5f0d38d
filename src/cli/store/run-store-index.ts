import { createHash } from 'node:crypto';
import type { SqlQueryable } from '../../checkpoints/sql-database.js';
import { sqlIdentifier } from '../../sinks/postgres/sql-quote.js';
import { templatePredicate } from '../../sinks/postgres/typed-view-definitions.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import { openStoreDatabase } from './open-store-database.js';
import type { StoreIndexOptions } from './store-index-options.js';

const identifier = /^[a-z_][a-z0-9_]*$/;

interface Template {
  readonly package_name: string;
  readonly module_name: string;
  readonly entity_name: string;
}

/** The one template `name` means, among the templates the store holds or has a typed view of; a usage error for none or several. */
async function resolveTemplate(db: SqlQueryable, name: string): Promise<Template> {
  const rows = (
    await db.query<Template>(
      `SELECT DISTINCT package_name, module_name, entity_name FROM (
         SELECT package_name, module_name, entity_name, NULL::text AS view_name FROM ledger_rx_templates
         UNION ALL SELECT package_name, module_name, entity_name, view_name FROM ledger_rx_typed_views WHERE kind = 'template') t
        WHERE $1 IN (package_name || ':' || module_name || ':' || entity_name, '#' || package_name || ':' || module_name || ':' || entity_name,
                     module_name || ':' || entity_name, entity_name, module_name || '.' || entity_name)
           OR view_name = $1
        ORDER BY 1, 2, 3`,
      [name],
    )
  ).rows;
  const qualified = (t: Template) => `${t.package_name}:${t.module_name}:${t.entity_name}`;
  if (rows.length === 0) {
    throw new UsageError(`no template '${name}' in this store (names: Entity, Module:Entity, package-name:Module:Entity; a template is known once ingested, or from ingest --dar)`);
  }
  if (rows.length > 1) throw new UsageError(`ambiguous template '${name}': it matches ${rows.map(qualified).join(', ')}; qualify it`);
  return rows[0] as Template;
}

/**
 * Rejects an `--expr` that could be more than one expression: a `;`, or a comment (`--`, `/*`), outside string
 * literals and quoted identifiers. The expression is SQL by design (docs/query-store.md, "Expression indexes");
 * this keeps a typo or a pasted script from becoming a second statement.
 */
function checkExpression(expr: string): void {
  let quote: string | undefined;
  let depth = 0;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i] as string;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === ';' || (c === '-' && expr[i + 1] === '-') || (c === '/' && expr[i + 1] === '*')) {
      throw new UsageError(`--expr must be one SQL expression, without ';' or comments: got ${JSON.stringify(expr)}`);
    } else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) throw new UsageError(`--expr has an unbalanced ')': ${JSON.stringify(expr)}`);
  }
  if (quote !== undefined || depth !== 0) throw new UsageError(`--expr has an unclosed quote or parenthesis: ${JSON.stringify(expr)}`);
}

/** The expression `expr` means for the template: its typed view's column of that name (quoted or not), else `expr` itself. */
async function expressionOf(db: SqlQueryable, template: Template, expr: string): Promise<{ readonly expression: string; readonly column: string | undefined }> {
  const name = /^"(.*)"$/.exec(expr.trim())?.[1]?.replaceAll('""', '"') ?? expr.trim();
  const rows = (
    await db.query<{ columns: { name: string; expression: string }[] }>(
      `SELECT columns FROM ledger_rx_typed_views WHERE kind = 'template' AND package_name = $1 AND module_name = $2 AND entity_name = $3`,
      [template.package_name, template.module_name, template.entity_name],
    )
  ).rows;
  for (const row of rows) {
    const column = row.columns.find((c) => c.name === name);
    if (column !== undefined) return { expression: column.expression, column: column.name };
  }
  return { expression: expr.trim(), column: undefined };
}

/**
 * `ledger-rx store index --template NAME --expr EXPR`: an expression index on the template's rows of
 * `active_contracts` (a partial index with the typed view's predicate, so queries on the view and on the table with
 * that template's filter can use it; docs/query-store.md, "Expression indexes"). `EXPR` is a column of the
 * template's typed view (`owner`, `amount`: its SQL expression is used) or an SQL expression over the table's
 * columns (`create_argument ->> 'owner'`) — SQL by design, checked to be one expression that PostgreSQL accepts
 * over the table before anything is created. `NAME` never reaches the SQL text: it is matched as a parameter, and
 * the template's names are quoted as literals. The index is named `ledger_rx_ix_` and 20 hex digits of a SHA-1 of
 * the template and the expression, so running it twice is a no-op. On a server it is built `CONCURRENTLY` (the
 * ingester goes on writing), and an invalid index left by an interrupted build is dropped and built again.
 * Prints one JSON line: `{"index","template","expression","created","concurrently"}`. Exit 0; 2 for bad usage
 * (an unknown or ambiguous template, an expression PostgreSQL refuses); 1 when the store cannot be opened.
 */
export async function runStoreIndex(options: StoreIndexOptions, io: CliIo): Promise<ExitCode> {
  let close: (() => Promise<void>) | undefined;
  try {
    const schema = options.schema ?? 'public';
    if (!identifier.test(schema)) throw new UsageError(`--schema must be a plain lower-case SQL identifier, got '${schema}'`);
    if (options.template === undefined || options.template.trim() === '') throw new UsageError('store index needs --template NAME');
    if (options.expr === undefined || options.expr.trim() === '') throw new UsageError('store index needs --expr EXPR (a typed view column, or an SQL expression over active_contracts)');
    checkExpression(options.expr);
    const store = await openStoreDatabase({ pg: options.pg, dataDir: options.dataDir, schema });
    close = () => store.close();
    const db = store.database;
    const template = await resolveTemplate(db, options.template.trim());
    const { expression, column } = await expressionOf(db, template, options.expr);
    const predicate = templatePredicate(template.package_name, template.module_name, template.entity_name);
    // one expression over the table, or PostgreSQL's error (a parameter makes pg and PGlite send one statement, never several)
    try {
      await db.query(`SELECT (${expression}) FROM active_contracts WHERE ${predicate} AND $1::boolean LIMIT 0`, [false]);
    } catch (error) {
      throw new UsageError(`--expr ${JSON.stringify(options.expr)} is not an expression over active_contracts: ${error instanceof Error ? error.message : String(error)}`);
    }
    const qualified = `${template.package_name}:${template.module_name}:${template.entity_name}`;
    const name = `ledger_rx_ix_${createHash('sha1').update(`${qualified}\u0000${expression}`).digest('hex').slice(0, 20)}`;
    const concurrently = options.pg !== undefined;
    const state = async () =>
      (
        await db.query<{ valid: boolean }>(
          `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`,
          [schema, name],
        )
      ).rows[0];
    const before = await state();
    if (before !== undefined && !before.valid) await db.query(`DROP INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF EXISTS ${schema}.${sqlIdentifier(name)}`);
    const created = before === undefined || !before.valid;
    if (created) {
      await db.query(`CREATE INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ${sqlIdentifier(name)} ON ${schema}.active_contracts ((${expression})) WHERE ${predicate}`);
    }
    io.stdout.write(`${JSON.stringify({ index: name, template: qualified, ...(column === undefined ? {} : { column }), expression, created, concurrently })}\n`);
    return ExitCode.OK;
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    const sqlState = (error as { code?: unknown }).code;
    return typeof sqlState === 'string' && sqlState.startsWith('42') ? ExitCode.USAGE : exitCodeFor(error);
  } finally {
    await close?.().catch(() => undefined);
  }
}
