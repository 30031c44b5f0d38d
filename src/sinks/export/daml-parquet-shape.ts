import type { DamlDataType, DamlPackage, DamlType, TypeConRef } from '../../daml/package-model.js';
import type { ExportValue } from './export-tables.js';

/** A payload value that does not have the shape its Daml type says (thrown by {@link ParquetShape.convert}). */
export class PayloadShapeError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly value: unknown,
  ) {
    super(`${path}: expected ${expected}, got ${JSON.stringify(value) ?? String(value)}`);
    this.name = 'PayloadShapeError';
  }
}

/**
 * What a Daml type is as a column, whatever the store: the one classification the typed Parquet tables and the
 * query store's typed SQL views (docs/query-store.md, "Typed views") both map from. `numeric` carries its scale.
 */
export type DamlColumnType =
  | { readonly kind: 'text' | 'boolean' | 'int64' | 'date' | 'timestamp' | 'list' | 'record' | 'json' }
  | { readonly kind: 'numeric'; readonly scale: number };

/** How values of one Daml type are stored in a typed template table (docs/analytics-export.md, "Typed tables"). */
export interface ParquetShape {
  /** What the column is, for the docs and errors: `decimal(38,10)`, `bigint`, `struct`, `json`... */
  readonly describe: string;
  /** The Daml type's column kind (an Optional's is its element's). */
  readonly column: DamlColumnType;
  /** The parquet-format schema elements of a column (or struct field, or list element) of this type named `name`. */
  schema(name: string, optional: boolean): Record<string, unknown>[];
  /** The value to write, from the value as the participant encodes it (docs/typed-templates.md); `path` names it in errors. */
  convert(value: unknown, path: string): ExportValue;
}

const utf8 = (name: string, optional: boolean) => [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' }];

/** Days from 1970-01-01 to a proleptic Gregorian date, exact for every Daml date (years 1 to 9999; no `Date.UTC` two-digit-year quirk). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const dateText = /^(\d{4})-(\d{2})-(\d{2})$/;
const timeText = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;
const int64Text = /^-?\d{1,19}$/;
const numericText = /^(-?)(\d*)(?:\.(\d*))?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const text: ParquetShape = {
  describe: 'string',
  column: { kind: 'text' },
  schema: utf8,
  convert(value, path) {
    if (typeof value !== 'string') throw new PayloadShapeError(path, 'a string', value);
    return value;
  },
};

const json: ParquetShape = {
  describe: 'json',
  column: { kind: 'json' },
  schema: utf8,
  convert: (value) => JSON.stringify(value),
};

const bool: ParquetShape = {
  describe: 'boolean',
  column: { kind: 'boolean' },
  schema: (name, optional) => [{ name, type: 'BOOLEAN', repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' }],
  convert(value, path) {
    if (typeof value !== 'boolean') throw new PayloadShapeError(path, 'a boolean', value);
    return value;
  },
};

const int64: ParquetShape = {
  describe: 'bigint',
  column: { kind: 'int64' },
  schema: (name, optional) => [{ name, type: 'INT64', repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' }],
  convert(value, path) {
    const t = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof t !== 'string' || !int64Text.test(t)) throw new PayloadShapeError(path, 'an Int64 (a decimal string)', value);
    const n = BigInt(t);
    if (n < INT64_MIN || n > INT64_MAX) throw new PayloadShapeError(path, 'an Int64 in range', value);
    return n;
  },
};

const date: ParquetShape = {
  describe: 'date',
  column: { kind: 'date' },
  schema: (name, optional) => [{ name, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' }, repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' }],
  convert(value, path) {
    const m = typeof value === 'string' ? dateText.exec(value) : null;
    if (!m) throw new PayloadShapeError(path, 'a Date (YYYY-MM-DD)', value);
    return daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
  },
};

const timestamp: ParquetShape = {
  describe: 'timestamp',
  column: { kind: 'timestamp' },
  schema: (name, optional) => [
    { name, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }, repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' },
  ],
  convert(value, path) {
    const m = typeof value === 'string' ? timeText.exec(value) : null;
    if (!m) throw new PayloadShapeError(path, 'a Time (YYYY-MM-DDThh:mm:ss[.ffffff]Z)', value);
    const [, y, mo, d, h, mi, s, frac = ''] = m;
    const seconds = BigInt(daysFromCivil(Number(y), Number(mo), Number(d))) * 86_400n + BigInt(Number(h) * 3600 + Number(mi) * 60 + Number(s));
    return seconds * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
  },
};

/** Numeric n: DECIMAL(38, n) in a 16-byte fixed-length array, the unscaled value read digit by digit (never through a float). */
function numeric(scale: number): ParquetShape {
  return {
    describe: `decimal(38,${scale})`,
    column: { kind: 'numeric', scale },
    schema: (name, optional) => [
      {
        name,
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 16,
        converted_type: 'DECIMAL',
        precision: 38,
        scale,
        logical_type: { type: 'DECIMAL', precision: 38, scale },
        repetition_type: optional ? 'OPTIONAL' : 'REQUIRED',
      },
    ],
    convert(value, path) {
      const m = typeof value === 'string' ? numericText.exec(value) : null;
      const [, sign = '', whole = '', fraction = ''] = m ?? [];
      // the participant prints exactly `scale` fraction digits; fewer are padded, more would not be exact
      if (!m || whole.length + fraction.length === 0 || fraction.replace(/0+$/, '').length > scale || whole.length > 38 - scale) {
        throw new PayloadShapeError(path, `a Numeric ${scale} (a decimal string with at most ${scale} fraction digits)`, value);
      }
      const unscaled = BigInt((whole || '0') + (fraction + '0'.repeat(scale)).slice(0, scale));
      return sign === '-' ? -unscaled : unscaled;
    },
  };
}

/** Optional a: the shape of `a`, nullable. */
function optional(inner: ParquetShape): ParquetShape {
  return {
    describe: inner.describe,
    column: inner.column,
    schema: (name) => inner.schema(name, true),
    convert: (value, path) => (value === null || value === undefined ? null : inner.convert(value, path)),
  };
}

/** [a]: a Parquet LIST (3-level: the group, `list`, `element`). */
function list(element: ParquetShape, elementOptional: boolean): ParquetShape {
  return {
    describe: `${element.describe}[]`,
    column: { kind: 'list' },
    schema: (name, optional) => [
      { name, repetition_type: optional ? 'OPTIONAL' : 'REQUIRED', num_children: 1, converted_type: 'LIST' },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      ...element.schema('element', elementOptional),
    ],
    convert(value, path) {
      if (!Array.isArray(value)) throw new PayloadShapeError(path, 'a list', value);
      return value.map((v, i) => element.convert(v, `${path}[${i}]`));
    },
  };
}

/** A record: a Parquet group (DuckDB STRUCT) with one field per record field. */
function struct(fields: readonly (readonly [string, ParquetShape, boolean])[]): ParquetShape {
  return {
    describe: 'struct',
    column: { kind: 'record' },
    schema: (name, optional) => [
      { name, repetition_type: optional ? 'OPTIONAL' : 'REQUIRED', num_children: fields.length },
      ...fields.flatMap(([field, shape, fieldOptional]) => shape.schema(field, fieldOptional)),
    ],
    convert(value, path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PayloadShapeError(path, 'a record', value);
      const record = value as Record<string, unknown>;
      const out: Record<string, ExportValue> = {};
      for (const [field, shape] of fields) out[field] = shape.convert(record[field], `${path}.${field}`);
      return out;
    },
  };
}

/** One column or field: its shape and whether it is nullable (an Optional). */
export interface ShapedField {
  readonly name: string;
  readonly shape: ParquetShape;
  readonly optional: boolean;
}

const conKey = (ref: TypeConRef) => `${ref.packageId}:${ref.module}:${ref.name}`;

/**
 * Maps Daml types to Parquet shapes (docs/analytics-export.md, "Typed tables"): Bool → BOOLEAN, Int64 →
 * INT64, Numeric n → DECIMAL(38, n), Date → DATE, Time → TIMESTAMP(µs, UTC), Text/Party/ContractId/enum →
 * UTF8, Optional a → a nullable (Optional (Optional a) → JSON text), [a] → LIST, a record → a group (struct);
 * a variant, TextMap, GenMap, Unit, BigNumeric, an unresolved type and a recursive record → the value's
 * JSON text. `packages` are the DAR's packages by id (for records in other packages).
 */
export class DamlParquetShapes {
  private readonly stack: string[] = [];

  constructor(private readonly packages: ReadonlyMap<string, DamlPackage>) {}

  /** The fields of a record type as columns; `undefined` when `type` is not a (resolvable) record. */
  recordFields(type: DamlType): ShapedField[] | undefined {
    if (type.kind !== 'con') return undefined;
    const data = this.dataType(type.tycon);
    if (data === undefined || data.definition.kind !== 'record') return undefined;
    const bindings = new Map(data.params.map((p, i) => [p, type.args[i]] as const));
    const key = conKey(type.tycon);
    this.stack.push(key);
    try {
      return data.definition.fields.map((f) => this.field(f.name, substitute(f.type, bindings)));
    } finally {
      this.stack.pop();
    }
  }

  private field(name: string, type: DamlType): ShapedField {
    if (type.kind === 'builtin' && type.builtin === 'Optional') {
      const inner = type.args[0];
      if (inner === undefined || (inner.kind === 'builtin' && inner.builtin === 'Optional')) return { name, shape: json, optional: true };
      return { name, shape: optional(this.shape(inner)), optional: true };
    }
    return { name, shape: this.shape(type), optional: false };
  }

  private shape(type: DamlType): ParquetShape {
    if (type.kind === 'builtin') {
      switch (type.builtin) {
        case 'Bool':
          return bool;
        case 'Int64':
          return int64;
        case 'Date':
          return date;
        case 'Timestamp':
          return timestamp;
        case 'Text':
        case 'Party':
        case 'ContractId':
          return text;
        case 'Numeric': {
          const scale = type.args[0];
          return scale?.kind === 'nat' ? numeric(scale.value) : json;
        }
        case 'List': {
          const element = type.args[0];
          if (element === undefined) return json;
          const f = this.field('element', element);
          return list(f.shape, f.optional);
        }
        default:
          return json;
      }
    }
    if (type.kind === 'con') {
      const data = this.dataType(type.tycon);
      if (data?.definition.kind === 'enum') return text;
      if (data?.definition.kind !== 'record' || this.stack.includes(conKey(type.tycon))) return json;
      const fields = this.recordFields(type);
      if (fields === undefined || fields.length === 0) return json; // Parquet has no empty group
      return struct(fields.map((f) => [f.name, f.shape, f.optional] as const));
    }
    return json;
  }

  private dataType(ref: TypeConRef): DamlDataType | undefined {
    return this.packages
      .get(ref.packageId)
      ?.modules.find((m) => m.name === ref.module)
      ?.dataTypes.find((d) => d.name === ref.name);
  }
}

/** `type` with its type variables replaced by `bindings` (a record's parameters by its arguments). */
function substitute(type: DamlType, bindings: ReadonlyMap<string, DamlType | undefined>): DamlType {
  switch (type.kind) {
    case 'var': {
      const bound = bindings.get(type.name);
      return bound === undefined || type.args.length > 0 ? type : bound;
    }
    case 'con':
      return { ...type, args: type.args.map((a) => substitute(a, bindings)) };
    case 'builtin':
      return { ...type, args: type.args.map((a) => substitute(a, bindings)) };
    default:
      return type;
  }
}
