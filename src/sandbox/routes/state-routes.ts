import type { Route } from '../http/request-context.js';
import { formatInstant } from '../render/format-instant.js';

/**
 * State routes; both need an authenticated caller (any user):
 *
 * - `GET /v2/state/ledger-end` → `{offset, synchronizerTimes}`: the offset of the last update (0 on an
 *   empty ledger) and, per synchronizer, the latest record time seen (3.6 on; `{offset}` before:
 *   docs/participant-versions.md);
 * - `GET /v2/state/latest-pruned-offsets` → `{participantPrunedUpToInclusive,
 *   allDivulgedContractsPrunedUpToInclusive}`: both the pruning offset (0 when never pruned).
 */
export const stateRoutes: readonly Route[] = [
  {
    method: 'GET',
    pattern: '/v2/state/ledger-end',
    handler: async (ctx) => {
      await ctx.claims();
      const ledger = ctx.state.ledger;
      const offset = ledger.ledgerEnd();
      if (!ctx.state.api.ledgerEndSynchronizerTimes) return { json: { offset } };
      const times = ledger.synchronizerTimes();
      return {
        json: {
          offset,
          synchronizerTimes: ctx.state.synchronizers.map((s, i) => ({ synchronizerId: s.id, recordTime: formatInstant(times[i] ?? ledger.startedAtMs) })),
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/v2/state/latest-pruned-offsets',
    handler: async (ctx) => {
      await ctx.claims();
      const pruned = ctx.state.ledger.prunedOffset();
      return { json: { participantPrunedUpToInclusive: pruned, allDivulgedContractsPrunedUpToInclusive: pruned } };
    },
  },
];
