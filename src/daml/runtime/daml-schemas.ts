import { z } from 'zod';
import type { ContractId, DamlDate, GenMap, Int64, Numeric, Optional, OptionalLevel, Party, TextMap, Timestamp, Unit } from './daml-values.js';

/**
 * The schema builders generated code composes: each validates a Daml value as the participant's JSON Ledger API
 * v2 sends it (docs/typed-templates.md, "The JSON mapping") and types it with the names of `daml-values.ts`.
 * They are zod schemas: `schema.parse(value)` throws a `ZodError` whose issues carry the field path,
 * `schema.safeParse(value)` does not throw.
 */
export type Schema<T> = z.ZodType<T>;

/**
 * The fast path of the typed operators (docs/typed-templates.md, "Cost of typing"): each builder below registers
 * beside its zod schema a plain check that answers true only for a value the schema would give back unchanged
 * (the same keys in the same order, nothing stripped, no default filled in). A value that passes is used as it
 * is; any other goes through zod, which decides and reports the issues. Schemas not built here have no check.
 */
type FastCheck = (value: unknown) => boolean;
const fastChecks = new WeakMap<object, FastCheck>();

function withCheck<S extends object>(schema: S, check: FastCheck): S {
  fastChecks.set(schema, check);
  return schema;
}

const never: FastCheck = () => false;
const checkOf = (schema: object): FastCheck => fastChecks.get(schema) ?? never;

/** A plain object as `JSON.parse` builds it (no other prototype, no own `__proto__` key, which zod would not copy). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && !Object.prototype.hasOwnProperty.call(v, '__proto__');
}

/** The result of {@link parseDamlValue}: zod's `safeParse` result, or the value itself when the fast check passed. */
export type DamlParseResult<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly error: z.ZodError };

/**
 * Parses `value` with `schema` as `schema.safeParse` does, but returns `value` itself (no copy) when the builder's
 * fast check shows zod would give it back unchanged. Results and issues do not depend on the path taken.
 */
export function parseDamlValue<T>(schema: Schema<T>, value: unknown): DamlParseResult<T> {
  if (checkOf(schema)(value)) return { success: true, data: value as T };
  const parsed = schema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error };
}

const int64Pattern = /^-?\d{1,19}$/;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** Int64: a decimal string of at most 19 digits. */
export const int64: Schema<Int64> = withCheck(z.string().regex(int64Pattern, 'expected an Int64 as a decimal string'), (v) => typeof v === 'string' && int64Pattern.test(v));
/** Text. */
export const text: Schema<string> = withCheck(z.string(), (v) => typeof v === 'string');
/** Party. */
export const party: Schema<Party> = withCheck(z.string(), (v) => typeof v === 'string');
/** Bool. */
export const bool: Schema<boolean> = withCheck(z.boolean(), (v) => typeof v === 'boolean');
/** Date: `YYYY-MM-DD`. */
export const date: Schema<DamlDate> = withCheck(z.string().regex(datePattern, 'expected a Date as YYYY-MM-DD'), (v) => typeof v === 'string' && datePattern.test(v));
/** Timestamp: `YYYY-MM-DDThh:mm:ss[.f{1,6}]Z`, the participant's form. */
export const timestamp: Schema<Timestamp> = withCheck(z.string().regex(timestampPattern, 'expected a Timestamp as YYYY-MM-DDThh:mm:ss[.ffffff]Z'), (v) => typeof v === 'string' && timestampPattern.test(v));
/** Unit: `{}` (other keys are ignored, as the participant ignores them). */
export const unit: Schema<Unit> = withCheck(z.object({}), (v) => isPlainObject(v) && Object.keys(v).length === 0) as unknown as Schema<Unit>;

const numericCache = new Map<number, Schema<Numeric>>();
/**
 * Numeric with `scale` decimals (0–37): a decimal string with exactly `scale` fraction digits and at most 38
 * digits in all, as the participant writes it (`"1.5000000000"` at scale 10, `"42."` at scale 0).
 */
export function numeric(scale: number): Schema<Numeric> {
  let schema = numericCache.get(scale);
  if (schema === undefined) {
    const pattern = new RegExp(`^-?\\d{1,${38 - scale}}\\.\\d{${scale}}$`);
    schema = withCheck(z.string().regex(pattern, `expected a Numeric ${scale}: a decimal string with ${scale} fraction digits`), (v) => typeof v === 'string' && pattern.test(v));
    numericCache.set(scale, schema);
  }
  return schema;
}

/** ContractId of `T`: a string, typed as {@link ContractId}. */
export function contractId<T>(): Schema<ContractId<T>> {
  return withCheck(z.string(), (v) => typeof v === 'string') as unknown as Schema<ContractId<T>>;
}

/**
 * Optional `a` (an `a` that is not itself an Optional): `null` or the value; a record field of this type may be
 * absent (the participant drops trailing `None` fields) and reads as `null`.
 */
export function optional<T>(value: Schema<T>): Schema<Optional<T>> {
  const inner = checkOf(value);
  return withCheck((value as z.ZodType<T>).nullable().default(null), (v) => v === null || inner(v)) as unknown as Schema<Optional<T>>;
}

/** One level of a nested Optional: `[]` (None) or `[value]` (Some), the participant's form at every level. */
export function optionalLevel<T>(value: Schema<T>): Schema<OptionalLevel<T>> {
  const inner = checkOf(value);
  return withCheck(z.union([z.tuple([]), z.tuple([value])]), (v) => Array.isArray(v) && (v.length === 0 || (v.length === 1 && inner(v[0])))) as unknown as Schema<OptionalLevel<T>>;
}

/** List a: an array. */
export function list<T>(element: Schema<T>): Schema<T[]> {
  const inner = checkOf(element);
  return withCheck(z.array(element), (v) => {
    if (!Array.isArray(v)) return false;
    for (const x of v) if (!inner(x)) return false;
    return true;
  });
}

/** TextMap a: an object. */
export function textMap<V>(value: Schema<V>): Schema<TextMap<V>> {
  const inner = checkOf(value);
  return withCheck(z.record(z.string(), value), (v) => {
    if (!isPlainObject(v)) return false;
    for (const k in v) if (!inner(v[k])) return false;
    return true;
  }) as unknown as Schema<TextMap<V>>;
}

/** GenMap k v: an array of `[key, value]` pairs. */
export function genMap<K, V>(key: Schema<K>, value: Schema<V>): Schema<GenMap<K, V>> {
  const [k, x] = [checkOf(key), checkOf(value)];
  return withCheck(z.array(z.tuple([key, value])), (v) => {
    if (!Array.isArray(v)) return false;
    for (const e of v) if (!Array.isArray(e) || e.length !== 2 || !k(e[0]) || !x(e[1])) return false;
    return true;
  }) as unknown as Schema<GenMap<K, V>>;
}

/** A reference resolved at the first use: for recursive types and declarations later in the module. */
export function lazy<T>(get: () => Schema<T>): Schema<T> {
  let check: FastCheck | undefined;
  return withCheck(z.lazy(get), (v) => (check ??= checkOf(get()))(v)) as unknown as Schema<T>;
}

/** A record: an object with one schema per field (fields of other names are dropped: newer package versions may add some). */
export function record<T>(fields: { readonly [K in keyof T]-?: Schema<T[K]> }): Schema<T> {
  const names = Object.keys(fields);
  const checks = names.map((n) => checkOf((fields as Record<string, object>)[n] as object));
  // unchanged by zod: exactly the declared keys, in their order (a missing optional field would be filled in)
  return withCheck(z.object(fields as unknown as z.ZodRawShape), (v) => {
    if (!isPlainObject(v)) return false;
    let i = 0;
    for (const k in v) {
      if (k !== names[i] || !(checks[i] as FastCheck)(v[k])) return false;
      i++;
    }
    return i === names.length;
  }) as unknown as Schema<T>;
}

/** A variant: `{ tag, value }` with the constructor's name and payload (`{}` for a constructor without one). */
export function variantOf<T extends { readonly tag: string; readonly value: unknown }>(
  constructors: { readonly [C in T as C['tag']]: Schema<C['value']> },
): Schema<T> {
  const cases = Object.entries(constructors as Record<string, z.ZodType>).map(([tag, value]) => z.object({ tag: z.literal(tag), value }));
  if (cases.length === 0) return z.never() as unknown as Schema<T>;
  const byTag = new Map(Object.entries(constructors as Record<string, object>).map(([tag, value]) => [tag, checkOf(value)]));
  const schema = z.discriminatedUnion('tag', cases as unknown as [z.ZodObject<{ tag: z.ZodLiteral<string> }>, ...z.ZodObject<{ tag: z.ZodLiteral<string> }>[]]);
  return withCheck(schema, (v) => {
    if (!isPlainObject(v)) return false;
    const keys = Object.keys(v);
    const check = typeof v['tag'] === 'string' ? byTag.get(v['tag']) : undefined;
    return keys.length === 2 && keys[0] === 'tag' && keys[1] === 'value' && check !== undefined && check(v['value']);
  }) as unknown as Schema<T>;
}

/** An enum: the constructor's name as a string. */
export function enumeration<T extends string>(constructors: readonly T[]): Schema<T> {
  if (constructors.length === 0) return z.never() as unknown as Schema<T>;
  const names = new Set<unknown>(constructors);
  return withCheck(z.enum(constructors as unknown as [T, ...T[]]), (v) => names.has(v)) as unknown as Schema<T>;
}
