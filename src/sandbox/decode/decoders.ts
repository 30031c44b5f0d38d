import { SandboxError } from '../errors/sandbox-error.js';
import { dictionary } from './dictionary.js';
import { instantText } from './instant-text.js';
import { parseInstant } from './parse-instant.js';

/**
 * Request decoding for the sandbox, modelled on the server's circe codecs: a decoder checks a JSON value
 * at a path and returns the decoded value, or throws the 400 text/plain {@link SandboxError.decodeFailure}
 * the real server sends (`Invalid value for: body (<reason> at '<path>')`). The exact wording of the real
 * messages is library-generated; the status, content type and the named path are what clients rely on.
 *
 * The server's "relaxed" codec pre-fills missing repeated, map, string, bool, number and oneof fields with
 * their protobuf default, so most request fields are optional ({@link withDefault}); fields of `Option`
 * type also accept `null` ({@link optional}); plain scalars do not accept `null`.
 */
export type Decoder<T> = (value: unknown, path: string) => T;

/** Throws the decode failure for `path`. */
export function fail(path: string, reason: string): never {
  throw SandboxError.decodeFailure(path ? `${reason} at '${path}'` : reason);
}

function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // nested too deep for JSON.stringify's recursion (hostile input): describe it without recursing
    text = Array.isArray(value) ? '[...]' : '{...}';
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function wrongType(path: string, value: unknown, expected: string): never {
  return fail(path, `Got value '${show(value)}' with wrong type, expecting ${expected}`);
}

/** A child path: `a.b`, `a[0]`. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

export const string: Decoder<string> = (v, p) => (typeof v === 'string' ? v : wrongType(p, v, 'string'));

export const boolean: Decoder<boolean> = (v, p) => (typeof v === 'boolean' ? v : wrongType(p, v, 'boolean'));

/**
 * An integer in `[min, max]`: a JSON number that is integral, or a string of decimal digits (optional
 * `-`, surrounding blanks allowed) whose exact value — checked with BigInt — is in range. A JSON number
 * arrives already rounded to the nearest double, so a number is accepted up to `numberBound` in absolute
 * value (for int64, 2^63: `9223372036854775807` reads as 2^63). The result is a JS number: above 2^53 it
 * is the nearest double, not the exact value.
 */
function integer(min: bigint, max: bigint, numberBound: number, label: string): Decoder<number> {
  return (v, p) => {
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || Math.abs(v) > numberBound) return wrongType(p, v, label);
      return v;
    }
    if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) {
      const exact = BigInt(v.trim());
      if (exact < min || exact > max) return wrongType(p, v, label);
      return Number(exact);
    }
    return wrongType(p, v, label);
  };
}

/**
 * An int64, as circe's `Long` decoder reads it: a JSON number or a numeric string, anywhere in
 * [-2^63, 2^63 - 1]. Values beyond 2^53 lose precision (see {@link integer}).
 */
export const int64: Decoder<number> = integer(-(2n ** 63n), 2n ** 63n - 1n, 2 ** 63, 'long');

/** An int32. */
export const int32: Decoder<number> = integer(-(2n ** 31n), 2n ** 31n - 1n, 2 ** 31 - 1, 'int');

/**
 * An ISO-8601 instant as `Instant.parse` reads it ({@link parseInstant}: `2026-06-30T10:15:30Z`, any case,
 * 0 to 9 fractional digits, `Z` or an offset such as `+01:00`), returned in UTC as the server prints it
 * (`Instant.toString`: `2026-06-30T09:15:30Z` for `2026-06-30T10:15:30+01:00`, `.500` for `.5`), so that
 * every consumer sees one canonical form.
 */
export const timestamp: Decoder<string> = (v, p) => {
  if (typeof v !== 'string') return wrongType(p, v, 'instant');
  const instant = parseInstant(v);
  if (!instant) return fail(p, `Text '${v}' could not be parsed as an instant`);
  return instantText(instant);
};

/** Any JSON value (Daml payloads). */
export const json: Decoder<unknown> = (v) => v;

/** One of the enum names; an unknown name fails like the server's enum decoder. */
export function enumOf<const T extends string>(values: readonly T[]): Decoder<T> {
  return (v, p) => {
    if (typeof v !== 'string') return wrongType(p, v, 'string');
    if (!(values as readonly string[]).includes(v)) {
      return fail(p, `Unrecognized enum value ${v}. Supported values: [${values.join(', ')}]`);
    }
    return v as T;
  };
}

export function array<T>(item: Decoder<T>): Decoder<T[]> {
  return (v, p) => {
    if (!Array.isArray(v)) return wrongType(p, v, 'array');
    return v.map((x, i) => item(x, at(p, i)));
  };
}

/**
 * A JSON object used as a string-keyed map. The result is a {@link dictionary}: every key of the input is
 * kept, `__proto__` included, for the caller to validate like any other key.
 */
export function map<T>(item: Decoder<T>): Decoder<Record<string, T>> {
  return (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return wrongType(p, v, 'object');
    return dictionary(Object.entries(v).map(([k, x]) => [k, item(x, at(p, k))] as const));
  };
}

const OPTIONAL = Symbol('optional');
const DEFAULT = Symbol('default');

/** A field decoder that knows how to treat a missing key. */
export type FieldDecoder<T> = Decoder<T> & { [OPTIONAL]?: true; [DEFAULT]?: () => T };

/** An `Option` field: missing or `null` gives `undefined`. */
export function optional<T>(decoder: Decoder<T>): FieldDecoder<T | undefined> {
  const d: FieldDecoder<T | undefined> = (v, p) => (v === null || v === undefined ? undefined : decoder(v, p));
  d[OPTIONAL] = true;
  return d;
}

/** A relaxed-codec field: missing gives the protobuf default; `null` is still a type error. */
export function withDefault<T>(decoder: Decoder<T>, fallback: () => T): FieldDecoder<T> {
  const d: FieldDecoder<T> = (v, p) => decoder(v, p);
  d[DEFAULT] = fallback;
  return d;
}

type Fields = Record<string, FieldDecoder<unknown>>;
type Decoded<F extends Fields> = { [K in keyof F]: F[K] extends FieldDecoder<infer T> ? T : never };

/**
 * A JSON object with the given fields. A missing field with neither {@link optional} nor {@link withDefault}
 * fails with `Missing required field`. Unknown properties are ignored, as the server ignores them.
 */
export function object<F extends Fields>(fields: F): Decoder<Decoded<F>> {
  return (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return wrongType(p, v, 'object');
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [name, decoder] of Object.entries(fields)) {
      const present = Object.prototype.hasOwnProperty.call(input, name);
      if (!present) {
        if (decoder[DEFAULT]) out[name] = decoder[DEFAULT]();
        else if (decoder[OPTIONAL]) out[name] = undefined;
        else fail(at(p, name), 'Missing required field');
        continue;
      }
      out[name] = decoder(input[name], at(p, name));
    }
    return out as Decoded<F>;
  };
}

/** A decoded variant: the alternative's name and its decoded payload. */
export interface Variant<K extends string, T> {
  readonly kind: K;
  readonly value: T;
}

type Alternatives = Record<string, Decoder<unknown>>;
type DecodedVariant<A extends Alternatives> = {
  [K in keyof A & string]: Variant<K, A[K] extends Decoder<infer T> ? T : never>;
}[keyof A & string];

/**
 * A variant: an object with exactly one key naming the alternative. An unknown name or a wrong number of
 * keys is a decode failure, as with the server's sealed-trait codecs.
 */
export function variant<A extends Alternatives>(typeName: string, alternatives: A): Decoder<DecodedVariant<A>> {
  return (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return wrongType(p, v, 'object');
    const keys = Object.keys(v);
    if (keys.length !== 1) return fail(p, `${typeName} expects exactly one of ${Object.keys(alternatives).join(', ')}`);
    const kind = keys[0] as string;
    const decoder = Object.prototype.hasOwnProperty.call(alternatives, kind) ? alternatives[kind] : undefined;
    if (!decoder) return fail(p, `type ${typeName} has no class/object/case '${kind}'`);
    return { kind, value: decoder((v as Record<string, unknown>)[kind], at(p, kind)) } as DecodedVariant<A>;
  };
}

/** The `{"value": <payload>}` wrapper of wrapper alternatives. */
export function wrapped<T>(payload: Decoder<T>): Decoder<T> {
  const o = object({ value: payload });
  return (v, p) => o(v, p).value;
}

/** An empty object (`Empty`, `NoPrior`, unit payloads); extra keys are ignored. */
export const empty: Decoder<Record<string, never>> = (v, p) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return wrongType(p, v, 'object');
  return {};
};

/** Decodes a request body (already parsed JSON) with `decoder`. */
export function decodeBody<T>(decoder: Decoder<T>, value: unknown): T {
  return decoder(value, '');
}
