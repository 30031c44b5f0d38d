import type { Dar } from '../../daml/read-dar.js';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { DamlParquetShapes, PayloadShapeError, type ShapedField } from './daml-parquet-shape.js';
import { newestMainPackages } from './newest-main-packages.js';
import { columnSchema, exportTableLayout, exportTables, type ExportColumnLayout, type ExportTableLayout, type ExportValue } from './export-tables.js';

/** The prefix of a typed template table's name: `template__<package-name>__<Module>__<Entity>`. */
export const TYPED_TABLE_PREFIX = 'template__';

/** The columns every typed template table starts with, before the payload's fields (the `events` columns of the same name). */
const leadColumns = ['offset', 'update_id', 'node_id', 'kind', 'contract_id', 'package_id', 'record_time'] as const;

/** A table of the created events of one template, one column per payload field (docs/analytics-export.md, "Typed tables"). */
export interface TypedTemplateTable {
  /** The table (directory) name: `template__<package-name>__<Module>__<Entity>`. */
  readonly name: string;
  /** The template id in the package-name form, `#<package-name>:<Module>:<Entity>`, as the `events` table has it. */
  readonly templateId: string;
  readonly layout: ExportTableLayout;
  /** The payload's fields, in column order after the lead columns, with the column name each is written as. */
  readonly fields: readonly (ShapedField & { readonly column: string })[];
  /**
   * The row of a created event: `lead` are the values of the lead columns, `argument` the create argument
   * as the participant encoded it. Throws `SINK_FAILED` when the argument does not have the DAR's type.
   */
  row(lead: readonly ExportValue[], argument: unknown): ExportValue[];
}

/** A table name part: characters other than letters, digits, `.`, `-` and `_` become `_`. */
const part = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

/** The typed table name of a template. */
export function typedTableName(packageName: string, module: string, entity: string): string {
  return `${TYPED_TABLE_PREFIX}${part(packageName)}__${part(module)}__${part(entity)}`;
}

/**
 * The typed template tables of `dars` (docs/analytics-export.md, "Typed tables"): one per template of each
 * DAR's MAIN package (not of its dependencies), sorted by name. When two DARs have main packages of the same
 * name (two versions of a package), the newest version's templates are used: an upgrade only adds trailing
 * Optional fields, so older payloads fit it (their missing fields are null). A template whose payload is not
 * a record of the DAR (never, for a well-formed DAR) has no table.
 */
export function typedTemplateTables(dars: readonly Dar[]): TypedTemplateTable[] {
  const tables: TypedTemplateTable[] = [];
  for (const { main, dar } of newestMainPackages(dars)) {
    const shapes = new DamlParquetShapes(dar.packages);
    for (const module of main.modules) {
      for (const template of module.templates) {
        const fields = shapes.recordFields(template.payload);
        if (fields === undefined) continue;
        tables.push(typedTable(main.name, module.name, template.name, fields));
      }
    }
  }
  return tables.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function typedTable(packageName: string, module: string, entity: string, fields: readonly ShapedField[]): TypedTemplateTable {
  const templateId = `#${packageName}:${module}:${entity}`;
  const eventColumns = exportTables.events;
  const lead: ExportColumnLayout[] = leadColumns.map((name) => {
    const column = eventColumns.find((c) => c.name === name);
    if (column === undefined) throw new Error(`events has no column ${name}`);
    return { name, statistics: column.statistics, schema: columnSchema(column) };
  });
  const taken = new Set<string>(leadColumns);
  const named = fields.map((f) => {
    // a payload field named like a lead column is written as `payload_<name>`
    const column = taken.has(f.name) ? `payload_${f.name}` : f.name;
    taken.add(column);
    return { ...f, column };
  });
  const payload: ExportColumnLayout[] = named.map((f) => ({ name: f.column, statistics: false, schema: f.shape.schema(f.column, f.optional) }));
  const layout = exportTableLayout(typedTableName(packageName, module, entity), [...lead, ...payload]);
  return {
    name: layout.name,
    templateId,
    layout,
    fields: named,
    row(leadValues, argument) {
      const row = [...leadValues];
      if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) {
        throw new LedgerRxError(ErrorCodes.SINK_FAILED, `the create argument of ${templateId} at offset ${String(leadValues[0])} is not a record: the --dar does not describe this template`);
      }
      const record = argument as Record<string, unknown>;
      try {
        for (const f of named) row.push(f.shape.convert(record[f.name], f.name));
      } catch (error) {
        if (!(error instanceof PayloadShapeError)) throw error;
        throw new LedgerRxError(
          ErrorCodes.SINK_FAILED,
          `the create argument of ${templateId} at offset ${String(leadValues[0])} does not have the type the DAR declares (${error.message}): give the DAR of the package version on the ledger`,
          { cause: error },
        );
      }
      return row;
    },
  };
}
