/** A JSON object as read from the wire. */
export type Json = Record<string, unknown>;

/**
 * The defensive readers of wire fields the row mappers share (elements may be unvalidated): a missing or
 * mistyped string becomes `null` (`str`) or `""` (`text`), a number 0 (`int`, which also takes an integer
 * string), a list of strings `[]`; `json` serializes any value (`null` for none), `jsonOrNull` keeps none as
 * `null`. Pure.
 */
export const wireFields = {
  isObject: (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v),
  str: (v: unknown): string | null => (typeof v === 'string' ? v : null),
  text: (v: unknown): string => (typeof v === 'string' ? v : ''),
  int: (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : 0),
  strings: (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []),
  json: (v: unknown): string => JSON.stringify(v ?? null),
  jsonOrNull: (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v)),
};
