import type { LedgerClient } from '../../client/ledger-client.js';
import { retryStartupCall, type RetryStartupCallOptions } from './retry-startup-call.js';

/** The participant's bounds as a streaming command sees them when it starts. */
export interface LedgerBounds {
  /** The ledger end (`GET /v2/state/ledger-end`; 0 on an empty ledger). */
  ledgerEnd(): Promise<number>;
  /**
   * The pruning boundary (`participantPrunedUpToInclusive` of `GET /v2/state/latest-pruned-offsets`; 0 when
   * nothing is pruned): the smallest `beginExclusive` the participant still serves.
   */
  prunedUpTo(): Promise<number>;
  /**
   * The first contact, when neither bound was asked yet: the ledger end (shared with `ledgerEnd()`), so that
   * a wrong address fails at start-up (see `RetryStartupCallOptions.firstContact`) whatever the range.
   */
  reach(): Promise<void>;
}

/**
 * The {@link LedgerBounds} of `client`, each looked up once (the first call; later calls share its
 * answer, so every decision of the start-up sees the same ledger end) and retried like the read that
 * follows (see {@link retryStartupCall}: exit 4 when the participant stays unreachable, abandoned at a stop).
 */
export function ledgerBounds(client: Pick<LedgerClient, 'ledgerEnd' | 'latestPrunedOffsets'>, options: RetryStartupCallOptions): LedgerBounds {
  let end: Promise<number> | undefined;
  let pruned: Promise<number> | undefined;
  const ledgerEnd = () => (end ??= retryStartupCall((signal) => client.ledgerEnd({ signal }), options).then((r) => r.offset ?? 0));
  return {
    ledgerEnd,
    reach: async () => {
      await (pruned ?? ledgerEnd());
    },
    prunedUpTo: () =>
      (pruned ??= retryStartupCall((signal) => client.latestPrunedOffsets({ signal }), options).then(
        (r) => r.participantPrunedUpToInclusive ?? 0,
      )),
  };
}
