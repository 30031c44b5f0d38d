import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';

function reduce(value: unknown): unknown {
  if (value instanceof Error) {
    const e = value as Error & { code?: unknown };
    return { name: e.name, code: e.code, message: e.message };
  }
  if (Array.isArray(value)) return value.map(reduce);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reduce(v)]));
  }
  return value;
}

/** A TestScheduler whose matcher compares errors by `{name, code, message}`. */
export function createTestScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => {
    expect(reduce(actual)).toEqual(reduce(expected));
  });
}
