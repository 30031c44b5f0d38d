import { z } from 'zod';
import type { ContractId, DamlDate, GenMap, Int64, Numeric, Optional, OptionalLevel, Party, TextMap, Timestamp, Unit } from './daml-values.js';

/**
 * The schema builders generated code composes: each validates a Daml value as the participant's JSON Ledger API
 * v2 sends it (docs/typed-templates.md, "The JSON mapping") and types it with the names of `daml-values.ts`.
 * They are zod schemas: `schema.parse(value)` throws a `ZodError` whose issues carry the field path,
 * `schema.safeParse(value)` does not throw.
 */
export type Schema<T> = z.ZodType<T>;

const int64Pattern = /^-?\d{1,19}$/;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** Int64: a decimal string of at most 19 digits. */
export const int64: Schema<Int64> = z.string().regex(int64Pattern, 'expected an Int64 as a decimal string');
/** Text. */
export const text: Schema<string> = z.string();
/** Party. */
export const party: Schema<Party> = z.string();
/** Bool. */
export const bool: Schema<boolean> = z.boolean();
/** Date: `YYYY-MM-DD`. */
export const date: Schema<DamlDate> = z.string().regex(datePattern, 'expected a Date as YYYY-MM-DD');
/** Timestamp: `YYYY-MM-DDThh:mm:ss[.f{1,6}]Z`, the participant's form. */
export const timestamp: Schema<Timestamp> = z.string().regex(timestampPattern, 'expected a Timestamp as YYYY-MM-DDThh:mm:ss[.ffffff]Z');
/** Unit: `{}` (other keys are ignored, as the participant ignores them). */
export const unit: Schema<Unit> = z.object({}) as unknown as Schema<Unit>;

const numericCache = new Map<number, Schema<Numeric>>();
/**
 * Numeric with `scale` decimals (0–37): a decimal string with exactly `scale` fraction digits and at most 38
 * digits in all, as the participant writes it (`"1.5000000000"` at scale 10, `"42."` at scale 0).
 */
export function numeric(scale: number): Schema<Numeric> {
  let schema = numericCache.get(scale);
  if (schema === undefined) {
    const pattern = new RegExp(`^-?\\d{1,${38 - scale}}\\.\\d{${scale}}$`);
    schema = z.string().regex(pattern, `expected a Numeric ${scale}: a decimal string with ${scale} fraction digits`);
    numericCache.set(scale, schema);
  }
  return schema;
}

/** ContractId of `T`: a string, typed as {@link ContractId}. */
export function contractId<T>(): Schema<ContractId<T>> {
  return z.string() as unknown as Schema<ContractId<T>>;
}

/**
 * Optional `a` (an `a` that is not itself an Optional): `null` or the value; a record field of this type may be
 * absent (the participant drops trailing `None` fields) and reads as `null`.
 */
export function optional<T>(value: Schema<T>): Schema<Optional<T>> {
  return (value as z.ZodType<T>).nullable().default(null) as unknown as Schema<Optional<T>>;
}

/** One level of a nested Optional: `[]` (None) or `[value]` (Some), the participant's form at every level. */
export function optionalLevel<T>(value: Schema<T>): Schema<OptionalLevel<T>> {
  return z.union([z.tuple([]), z.tuple([value])]) as unknown as Schema<OptionalLevel<T>>;
}

/** List a: an array. */
export function list<T>(element: Schema<T>): Schema<T[]> {
  return z.array(element);
}

/** TextMap a: an object. */
export function textMap<V>(value: Schema<V>): Schema<TextMap<V>> {
  return z.record(z.string(), value) as unknown as Schema<TextMap<V>>;
}

/** GenMap k v: an array of `[key, value]` pairs. */
export function genMap<K, V>(key: Schema<K>, value: Schema<V>): Schema<GenMap<K, V>> {
  return z.array(z.tuple([key, value])) as unknown as Schema<GenMap<K, V>>;
}

/** A reference resolved at the first use: for recursive types and declarations later in the module. */
export function lazy<T>(get: () => Schema<T>): Schema<T> {
  return z.lazy(get) as unknown as Schema<T>;
}

/** A record: an object with one schema per field (fields of other names are dropped: newer package versions may add some). */
export function record<T>(fields: { readonly [K in keyof T]-?: Schema<T[K]> }): Schema<T> {
  return z.object(fields as unknown as z.ZodRawShape) as unknown as Schema<T>;
}

/** A variant: `{ tag, value }` with the constructor's name and payload (`{}` for a constructor without one). */
export function variantOf<T extends { readonly tag: string; readonly value: unknown }>(
  constructors: { readonly [C in T as C['tag']]: Schema<C['value']> },
): Schema<T> {
  const cases = Object.entries(constructors as Record<string, z.ZodType>).map(([tag, value]) => z.object({ tag: z.literal(tag), value }));
  if (cases.length === 0) return z.never() as unknown as Schema<T>;
  return z.discriminatedUnion('tag', cases as unknown as [z.ZodObject<{ tag: z.ZodLiteral<string> }>, ...z.ZodObject<{ tag: z.ZodLiteral<string> }>[]]) as unknown as Schema<T>;
}

/** An enum: the constructor's name as a string. */
export function enumeration<T extends string>(constructors: readonly T[]): Schema<T> {
  if (constructors.length === 0) return z.never() as unknown as Schema<T>;
  return z.enum(constructors as unknown as [T, ...T[]]) as unknown as Schema<T>;
}
