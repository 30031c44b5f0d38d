import { parseIntegerFlag } from './parse-integer-flag.js';

/** Typed reads of commander's parsed values (see {@link flagValues}). */
export interface FlagValues {
  /** The value of a string flag (commander key, e.g. `pageLimit`); `undefined` when not given. */
  str(key: string): string | undefined;
  /** The value of an integer flag, at least `min`; `undefined` when not given; `UsageError` naming `flag` when malformed. */
  int(key: string, flag: string, min: number): number | undefined;
}

/** Reads the flags of one command from commander's `values`; every `read…Options` starts with it. */
export function flagValues(values: Readonly<Record<string, unknown>>): FlagValues {
  const str = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  return {
    str,
    int(key, flag, min) {
      const v = str(key);
      return v === undefined ? undefined : parseIntegerFlag(flag, v, min);
    },
  };
}
