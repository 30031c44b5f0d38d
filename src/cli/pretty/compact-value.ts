import { elide } from './elide.js';
import { shortParty } from './short-party.js';

const bare = /^[\w.@+\-/#]+$/;
const decimal = /^-?\d+\.\d+$/;
const contractId = /^00[0-9a-f]{64,}$/;

function text(s: string): string {
  if (contractId.test(s)) return `#${elide(s, 6, 4)}`;
  const party = shortParty(s);
  if (party !== s) return party;
  if (decimal.test(s)) return s.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '.0');
  return s !== '' && bare.test(s) ? s : JSON.stringify(s);
}

/**
 * A one-line view of a Daml value in its JSON encoding (a create or choice argument), for people:
 * records as `{field: value, …}`, lists as `[a, b]`, variants (`{tag, value}`) as `Tag(value)` (`Tag` for a
 * unit value), party ids shortened (`shortParty`: `Alice`), contract ids as `#0000ab…cdef`, numerics without
 * their trailing zeros (`10.0000000000` → `10.0`), text without quotes unless it has spaces or punctuation.
 *
 * Stops once the text passes `budget` characters and ends it with `…` (a huge argument costs no more than
 * what fits on a line); the caller fits the result to its column.
 */
export function compactValue(value: unknown, budget = 1_000): string {
  let out = '';
  const full = () => out.length > budget;
  const put = (s: string) => {
    if (!full()) out += s;
  };
  const walk = (v: unknown): void => {
    if (full()) return;
    if (v === null || v === undefined) put('null');
    else if (typeof v === 'string') put(text(v));
    else if (typeof v === 'number' || typeof v === 'boolean') put(String(v));
    else if (Array.isArray(v)) {
      put('[');
      v.forEach((item, i) => {
        if (i > 0) put(', ');
        walk(item);
      });
      put(']');
    } else if (typeof v === 'object') {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length === 2 && typeof record['tag'] === 'string' && 'value' in record) {
        put(record['tag']);
        const inner = record['value'];
        if (!(typeof inner === 'object' && inner !== null && !Array.isArray(inner) && Object.keys(inner).length === 0)) {
          put('(');
          walk(inner);
          put(')');
        }
        return;
      }
      put('{');
      keys.forEach((key, i) => {
        if (i > 0) put(', ');
        put(`${key}: `);
        walk(record[key]);
      });
      put('}');
    } else put(String(v));
  };
  walk(value);
  return full() ? `${out.slice(0, budget)}…` : out;
}
