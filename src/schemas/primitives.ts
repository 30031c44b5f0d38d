import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

const digits = /^-?\d+$/;

function integer(min: number, max: number, label: string) {
  return z.union([
    z.number().int().min(min).max(max),
    z
      .string()
      .regex(digits, `${label}: expected an integer or a numeric string`)
      .transform(Number)
      .pipe(z.number().min(min).max(max).refine(Number.isSafeInteger, `${label}: beyond 2^53`)),
  ]);
}

/**
 * A 64-bit integer (offsets, counters, serials, seconds). A JSON number on the wire; on input the server
 * also accepts a numeric string, so this schema accepts both and always produces a `number`. Values beyond
 * 2^53 are rejected: participant offsets stay far below that.
 */
export const Int64 = lazySchema(() => integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'int64'));

/** A 32-bit integer; numeric strings are accepted on input, as the server does. */
export const Int32 = lazySchema(() => integer(-2147483648, 2147483647, 'int32'));

/** A ledger offset: a non-negative int64. */
export const Offset = lazySchema(() => integer(0, Number.MAX_SAFE_INTEGER, 'offset'));

/** An ISO-8601 instant in UTC (`2026-06-30T10:15:30.123456Z`), kept as text. */
export const Timestamp = lazySchema(() => z.string());

/** A JSON value, for JSON-valued payloads. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A Daml value (create and choice arguments, results, keys, views): opaque JSON, never inspected on the hot
 * path. Required-ness is kept: the key must be present, though its value may be `null`.
 */
export const DamlValue = lazySchema(() => z.custom<JsonValue>((v) => v !== undefined, { message: 'expected a Daml value' }));

/**
 * An optional Daml value: absent, `null`, or any JSON. Typed as an optional schema, so that an object's field
 * of this schema is optional in its type (`contractKey?: JsonValue`), as it is on the wire; at run time it is
 * the custom schema that accepts anything, `undefined` included (the validated decoder's fast path and the
 * drift test read it as such).
 */
export const OptionalDamlValue = lazySchema(
  () => z.custom<JsonValue | undefined>(() => true) as unknown as z.ZodOptional<z.ZodType<JsonValue>>,
);
