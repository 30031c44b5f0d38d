import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { sqlIdentifier } from './sql-quote.js';
import type { TypedViewDefinition } from './typed-view-definitions.js';

/** What {@link createTypedViews} did to one view. */
export interface TypedViewOutcome {
  readonly name: string;
  readonly kind: 'template' | 'interface';
  /** `created` (new), `replaced` (same columns, or columns added at the end), `recreated` (dropped and created: columns changed). */
  readonly action: 'created' | 'replaced' | 'recreated';
}

const identifier = /^[a-z_][a-z0-9_]*$/;

/** Whether `before`'s columns (name and type) are the first columns of `after`: then `CREATE OR REPLACE VIEW` keeps them. */
function isPrefix(before: readonly { name: string; type: string }[], after: readonly { name: string; type: string }[]): boolean {
  return before.length <= after.length && before.every((c, i) => c.name === after[i]?.name && c.type === after[i]?.type);
}

/**
 * Creates or replaces the typed views `definitions` in `schema` (docs/query-store.md, "Typed views"), in one
 * transaction under an advisory lock of the schema (two ingesters starting at once run one after the other), and
 * records each in `ledger_rx_typed_views` (migration 7, which must have run). Idempotent: a view whose columns
 * are unchanged, or only gained columns at the end, is replaced in place (`CREATE OR REPLACE VIEW`, so views a
 * user built on it keep working); one whose columns changed otherwise is dropped and created again, which fails
 * with `SINK_FAILED` naming the view when other objects depend on it. A relation of the same name that is not a
 * typed view (not in the catalog: a table or view of the user's) is never touched: `SINK_CONFLICT`. Views of
 * earlier runs that `definitions` do not name are kept.
 */
export async function createTypedViews(database: SqlDatabase, schema: string, definitions: readonly TypedViewDefinition[]): Promise<TypedViewOutcome[]> {
  if (!identifier.test(schema)) throw new RangeError(`schema must be a plain lower-case SQL identifier, got '${schema}'`);
  if (definitions.length === 0) return [];
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ledger-rx-typed-views:${schema}`]);
    await tx.query(`SET LOCAL search_path TO ${schema}`);
    const outcomes: TypedViewOutcome[] = [];
    for (const d of definitions) {
      const catalog = (await tx.query<{ columns: { name: string; type: string }[] }>('SELECT columns FROM ledger_rx_typed_views WHERE view_name = $1', [d.name])).rows[0];
      const relation = (
        await tx.query<{ relkind: string }>(
          `SELECT c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`,
          [schema, d.name],
        )
      ).rows[0];
      if (relation !== undefined && (catalog === undefined || relation.relkind !== 'v')) {
        throw new LedgerRxError(
          ErrorCodes.SINK_CONFLICT,
          `cannot create the typed view "${d.name}": schema ${schema} already has a relation of that name that ingest did not make; rename or drop it`,
        );
      }
      const columns = d.columns.map((c) => ({ name: c.name, field: c.field ?? null, type: c.type, expression: c.expression }));
      let action: TypedViewOutcome['action'] = 'created';
      if (relation !== undefined && catalog !== undefined) {
        if (isPrefix(catalog.columns, columns)) action = 'replaced';
        else {
          action = 'recreated';
          try {
            await tx.query(`DROP VIEW ${sqlIdentifier(d.name)}`);
          } catch (error) {
            throw new LedgerRxError(
              ErrorCodes.SINK_FAILED,
              `cannot recreate the typed view "${d.name}" with its new columns: ${error instanceof Error ? error.message : String(error)} (drop the objects that depend on it first)`,
              { cause: error },
            );
          }
        }
      }
      await tx.query(`CREATE OR REPLACE VIEW ${sqlIdentifier(d.name)} AS\n${d.select}`);
      await tx.query(
        `INSERT INTO ledger_rx_typed_views (view_name, kind, package_name, module_name, entity_name, package_id, columns, defined_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now())
         ON CONFLICT (view_name) DO UPDATE SET kind = EXCLUDED.kind, package_name = EXCLUDED.package_name, module_name = EXCLUDED.module_name,
           entity_name = EXCLUDED.entity_name, package_id = EXCLUDED.package_id, columns = EXCLUDED.columns, defined_at = EXCLUDED.defined_at`,
        [d.name, d.kind, d.packageName, d.module, d.entity, d.packageId, JSON.stringify(columns)],
      );
      outcomes.push({ name: d.name, kind: d.kind, action });
    }
    return outcomes;
  });
}
