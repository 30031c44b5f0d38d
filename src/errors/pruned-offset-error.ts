import { LedgerApiError, type LedgerApiErrorInit } from './ledger-api-error.js';

/**
 * `PARTICIPANT_PRUNED_DATA_ACCESSED`: the requested range starts before the participant's pruning offset.
 * `earliestOffset` is the pruning offset from `context.earliest_offset`: the smallest `beginExclusive` the
 * server still accepts. Not retryable with the same request.
 */
export class PrunedOffsetError extends LedgerApiError {
  override name = 'PrunedOffsetError';
  readonly earliestOffset: number | undefined;

  constructor(init: LedgerApiErrorInit) {
    super(init);
    const raw = init.body?.context['earliest_offset'];
    const parsed = raw === undefined ? Number.NaN : Number(raw);
    this.earliestOffset = Number.isSafeInteger(parsed) ? parsed : undefined;
  }
}
