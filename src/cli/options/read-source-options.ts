import { parseIntegerFlag } from './parse-integer-flag.js';
import type { SourceOptions } from './source-options.js';

/**
 * Turns the commander values of the flags added by `addSourceOptions` into {@link SourceOptions}.
 * Throws `UsageError` for a malformed `--rate` or `--seed`; the cross-flag rules are checked when the
 * source is opened (`openLedgerSource`).
 */
export function readSourceOptions(values: Readonly<Record<string, unknown>>): SourceOptions {
  const str = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  const rate = str('rate');
  const seed = str('seed');
  return {
    url: str('url'),
    token: str('token'),
    tokenFile: str('tokenFile'),
    sandbox: values['sandbox'] === true,
    sandboxRate: rate === undefined ? undefined : parseIntegerFlag('--rate', rate, 1),
    sandboxSeed: seed === undefined ? undefined : parseIntegerFlag('--seed', seed, 0),
  };
}
