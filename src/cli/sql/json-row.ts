/** A result column as both drivers describe it: its name and the PostgreSQL type oid. */
export interface SqlField {
  readonly name: string;
  readonly dataTypeID?: number | undefined;
}

const INT8 = 20;
const INT8_ARRAY = 1016;
const NUMERIC = 1700;
const NUMERIC_ARRAY = 1231;

/** A bigint as JSON: a number when it is a safe integer (every offset and count), else its decimal text. */
function bigintJson(v: unknown): unknown {
  if (v === null || v === undefined) return v;
  const text = typeof v === 'bigint' ? v.toString() : String(v);
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

/** A numeric as JSON: always its decimal text (exact; Daml decimals have up to 38 digits). */
function numericJson(v: unknown): unknown {
  return v === null || v === undefined ? v : String(v);
}

/**
 * One result row as the JSON object `ledger-rx sql --format ndjson` prints, the same whichever driver read it
 * (pg sends int8 as text, PGlite as a JS number; see docs/query-store.md "JSON types"): `bigint` columns (and
 * arrays of them) become JSON numbers when they are safe integers and decimal strings beyond ±2^53, `numeric`
 * columns become decimal strings, every other value is what the driver gave (`timestamptz` as an ISO text through
 * `Date.toJSON`, json/jsonb as parsed JSON). Pure.
 */
export function jsonRow(fields: readonly SqlField[], row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const f of fields) {
    const v = row[f.name];
    if (f.dataTypeID === INT8) out[f.name] = bigintJson(v);
    else if (f.dataTypeID === INT8_ARRAY && Array.isArray(v)) out[f.name] = v.map(bigintJson);
    else if (f.dataTypeID === NUMERIC) out[f.name] = numericJson(v);
    else if (f.dataTypeID === NUMERIC_ARRAY && Array.isArray(v)) out[f.name] = v.map(numericJson);
  }
  return out;
}
