import { createHash } from 'node:crypto';
import type { DamlInterface, DamlPackage, TypeConRef } from '../../daml/package-model.js';
import type { Dar } from '../../daml/read-dar.js';
import { DamlParquetShapes, type DamlColumnType, type ShapedField } from '../export/daml-parquet-shape.js';
import { newestMainPackages } from '../export/newest-main-packages.js';
import { sqlIdentifier, sqlLiteral } from './sql-quote.js';

/** One column of a typed view: a payload (or view) field in its SQL type, or one of the lead columns. */
export interface TypedViewColumn {
  /** The column's name in the view (the field's name; `payload_<name>` when it is a lead column's). */
  readonly name: string;
  /** The Daml field it reads; `undefined` for a lead column. */
  readonly field: string | undefined;
  /** Its SQL type: `text`, `boolean`, `bigint`, `numeric(38,10)`, `date`, `timestamptz`, `jsonb`, `text[]`. */
  readonly type: string;
  /**
   * Its SQL expression: for a template over the unqualified columns of `active_contracts` (`create_argument ->>
   * 'owner'`: an index on that expression serves the view); for an interface over `ac.` and `v.view_value`.
   */
  readonly expression: string;
}

/** The SQL view of one template or interface of a DAR (docs/query-store.md, "Typed views"). */
export interface TypedViewDefinition {
  /** The view's name: `Module.Entity`, `package-name:Module.Entity` when two packages define the same one. */
  readonly name: string;
  readonly kind: 'template' | 'interface';
  readonly packageName: string;
  /** The package id of the DAR's package that declares it. */
  readonly packageId: string;
  readonly module: string;
  readonly entity: string;
  readonly columns: readonly TypedViewColumn[];
  /** The `SELECT` the view is. */
  readonly select: string;
  /**
   * For a template, the clauses over `active_contracts` that select its rows, exactly as the view has them (an
   * index made with this predicate is one the planner can use for the view: `ledger-rx store index`).
   */
  readonly predicate: string;
}

/** PostgreSQL's longest identifier, in bytes; a longer one is cut (silently) by the server. */
const MAX_IDENTIFIER_BYTES = 63;


/** The SQL type of a Daml column kind. */
function sqlType(column: DamlColumnType): string {
  switch (column.kind) {
    case 'text':
      return 'text';
    case 'boolean':
      return 'boolean';
    case 'int64':
      return 'bigint';
    case 'numeric':
      return `numeric(38,${column.scale})`;
    case 'date':
      return 'date';
    case 'timestamp':
      return 'timestamptz';
    default:
      return 'jsonb';
  }
}

/**
 * The column of a field read from the jsonb `source`: a scalar as `source ->> 'f'` cast to its type (the
 * participant's JSON encodes Int64 and Numeric as decimal strings, so the cast is exact), anything nested as
 * `source -> 'f'` (jsonb; an Optional's JSON `null` as SQL NULL).
 */
function fieldColumn(source: string, field: ShapedField, name: string): TypedViewColumn {
  const type = sqlType(field.shape.column);
  const key = sqlLiteral(field.name);
  let expression: string;
  if (type === 'jsonb') expression = field.optional ? `nullif(${source} -> ${key}, 'null'::jsonb)` : `(${source} -> ${key})`;
  else if (type === 'text') expression = `(${source} ->> ${key})`;
  else expression = `(${source} ->> ${key})::${type}`;
  return { name, field: field.name, type, expression };
}

/** The lead columns, read from `active_contracts` (columns qualified with `prefix`: `ac.` where the view joins). */
const lead = (prefix: string): TypedViewColumn[] => [
  { name: 'contract_id', field: undefined, type: 'text', expression: `${prefix}contract_id` },
  { name: 'template_id', field: undefined, type: 'text', expression: `${prefix}template_id` },
  { name: 'package_name', field: undefined, type: 'text', expression: `${prefix}package_name` },
  { name: 'created_at_offset', field: undefined, type: 'bigint', expression: `${prefix}created_offset` },
  { name: 'created_at', field: undefined, type: 'timestamptz', expression: `${prefix}created_at` },
  { name: 'signatories', field: undefined, type: 'text[]', expression: `${prefix}signatories` },
  { name: 'observers', field: undefined, type: 'text[]', expression: `${prefix}observers` },
];

function columnsOf(prefix: string, source: string, fields: readonly ShapedField[]): TypedViewColumn[] {
  const columns = lead(prefix);
  const taken = new Set(columns.map((c) => c.name));
  for (const f of fields) {
    const name = taken.has(f.name) ? `payload_${f.name}` : f.name;
    taken.add(name);
    columns.push(fieldColumn(source, f, name));
  }
  return columns;
}

const selectList = (columns: readonly TypedViewColumn[]) => columns.map((c) => `${c.expression} AS ${sqlIdentifier(c.name)}`).join(',\n       ');

/**
 * The clauses selecting a template's rows of `active_contracts` (any version of its package), over its unqualified
 * columns: the typed view's and the partial index's predicate (`ledger-rx store index`), the same text, so that the
 * planner sees that the view's rows are the index's.
 */
export function templatePredicate(packageName: string, module: string, entity: string): string {
  return `package_name = ${sqlLiteral(packageName)} AND split_part(template_id, ':', 2) = ${sqlLiteral(module)} AND split_part(template_id, ':', 3) = ${sqlLiteral(entity)}`;
}

interface Candidate {
  readonly kind: 'template' | 'interface';
  readonly main: DamlPackage;
  readonly packageName: string;
  readonly packageId: string;
  readonly module: string;
  readonly entity: string;
  readonly fields: readonly ShapedField[];
  /** Interfaces: the package ids whose interface ids name it (every package of that name in the DARs). */
  readonly packageIds: readonly string[];
}

/** Cuts a name longer than PostgreSQL keeps to 50 bytes plus `~` and 12 hex digits of its SHA-1, so distinct names stay distinct. */
function fitName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_BYTES) return name;
  let cut = name;
  while (Buffer.byteLength(cut) > 50) cut = cut.slice(0, -1);
  return `${cut}~${createHash('sha1').update(name).digest('hex').slice(0, 12)}`;
}

/**
 * The typed views of `dars` (docs/query-store.md, "Typed views"): one per template of each DAR's main package
 * (the newest version's, as the export's typed tables: `newestMainPackages`), and one per interface that a main
 * package declares or that one of its templates implements, each with one column per field of the payload (or
 * of the interface's view type) in its SQL type (the Daml type walk is the export's `DamlParquetShapes`, mapped
 * through its `column` kind), after the lead columns. Named `Module.Entity`; where two packages define the same
 * `Module.Entity`, each is `package-name:Module.Entity`. A template or interface whose payload or view is not a
 * record of the DAR has no view. Pure; sorted by name.
 */
export function typedViewDefinitions(dars: readonly Dar[]): TypedViewDefinition[] {
  const candidates: Candidate[] = [];
  const seenInterfaces = new Set<string>();
  const packageIdsNamed = (name: string) => [...new Set(dars.flatMap((d) => [...d.packages.values()].filter((p) => p.name === name).map((p) => p.id)))].sort();
  for (const { main, dar } of newestMainPackages(dars)) {
    const shapes = new DamlParquetShapes(dar.packages);
    const addInterface = (pkg: DamlPackage, module: string, iface: DamlInterface) => {
      const key = `${pkg.name}:${module}:${iface.name}`;
      if (seenInterfaces.has(key)) return;
      seenInterfaces.add(key);
      const fields = shapes.recordFields(iface.view);
      if (fields === undefined) return;
      candidates.push({ kind: 'interface', main, packageName: pkg.name, packageId: pkg.id, module, entity: iface.name, fields, packageIds: packageIdsNamed(pkg.name) });
    };
    const resolve = (ref: TypeConRef) => {
      const pkg = dar.packages.get(ref.packageId);
      const iface = pkg?.modules.find((m) => m.name === ref.module)?.interfaces.find((i) => i.name === ref.name);
      if (pkg !== undefined && iface !== undefined) addInterface(pkg, ref.module, iface);
    };
    for (const module of main.modules) {
      for (const template of module.templates) {
        const fields = shapes.recordFields(template.payload);
        if (fields !== undefined) {
          candidates.push({ kind: 'template', main, packageName: main.name, packageId: main.id, module: module.name, entity: template.name, fields, packageIds: [main.id] });
        }
        for (const ref of template.implements) resolve(ref);
      }
      for (const iface of module.interfaces) addInterface(main, module.name, iface);
    }
  }
  const plainNames = new Map<string, number>();
  for (const c of candidates) plainNames.set(`${c.module}.${c.entity}`, (plainNames.get(`${c.module}.${c.entity}`) ?? 0) + 1);
  const definitions = candidates.map((c): TypedViewDefinition => {
    const plain = `${c.module}.${c.entity}`;
    const name = fitName((plainNames.get(plain) ?? 0) > 1 ? `${c.packageName}:${plain}` : plain);
    if (c.kind === 'template') {
      // over active_contracts alone, its columns unqualified: the expressions an index on the table is made of
      const columns = columnsOf('', 'create_argument', c.fields);
      const predicate = templatePredicate(c.packageName, c.module, c.entity);
      const select = `SELECT ${selectList(columns)}\n  FROM active_contracts\n WHERE stream_name = (SELECT ledger_rx_stream()) AND ${predicate}`;
      return { name, kind: c.kind, packageName: c.packageName, packageId: c.packageId, module: c.module, entity: c.entity, columns, select, predicate };
    }
    const columns = columnsOf('ac.', 'v.view_value', c.fields);
    const ids = [...c.packageIds, `#${c.packageName}`].map(sqlLiteral).join(', ');
    const predicate = `split_part(v.interface_id, ':', 1) IN (${ids}) AND split_part(v.interface_id, ':', 2) = ${sqlLiteral(c.module)} AND split_part(v.interface_id, ':', 3) = ${sqlLiteral(c.entity)}`;
    const select =
      `SELECT ${selectList(columns)}\n  FROM active_contracts ac\n` +
      `  JOIN ledger_rx_interface_views v ON v.stream_name = ac.stream_name AND v.contract_id = ac.contract_id AND v.ledger_offset = ac.created_offset\n` +
      ` WHERE ac.stream_name = (SELECT ledger_rx_stream()) AND ${predicate}`;
    return { name, kind: c.kind, packageName: c.packageName, packageId: c.packageId, module: c.module, entity: c.entity, columns, select, predicate };
  });
  return definitions.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
