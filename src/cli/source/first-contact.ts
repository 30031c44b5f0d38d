import type { SourceOptions } from '../options/source-options.js';
import type { LedgerSource } from './ledger-source.js';
import type { FirstContact } from './retry-startup-call.js';

/** How long a command's start-up retries a refused connection or an unknown host, by default. */
const defaultStartupGiveUpMs = 5_000;

/**
 * The {@link FirstContact} of a command's start-up over `source`: fail fast on a wrong address after
 * `options.startupGiveUpMs` (default {@link defaultStartupGiveUpMs}); `undefined` (retry as any failure) with
 * `--wait-for-participant` and for the embedded sandbox, which is up before the first request.
 */
export function firstContact(options: SourceOptions, source: LedgerSource): FirstContact | undefined {
  if (options.waitForParticipant === true || source.sandbox) return undefined;
  return { url: source.url, giveUpMs: options.startupGiveUpMs ?? defaultStartupGiveUpMs, reached: false };
}
