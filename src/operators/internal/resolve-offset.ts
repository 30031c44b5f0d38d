import { defer, map, of, tap, type Observable, type ObservableInput } from 'rxjs';
import type { GetLedgerEndResponse } from '../../schemas/state.js';
import type { TailStatus } from '../tail-status.js';

/**
 * An offset option of a read, resolved when subscribed (the ledger end is asked for then): `'begin'` is 0, a number itself, `'ledger-end'` the
 * ledger end `source` reports (`onStatus` gets it as a `ledger-end` status). Emits once and completes.
 */
export function resolveOffset(
  offset: number | 'begin' | 'ledger-end',
  source: { ledgerEnd(): ObservableInput<GetLedgerEndResponse> },
  onStatus: ((status: TailStatus) => void) | undefined,
): Observable<number> {
  if (offset !== 'ledger-end') return of(offset === 'begin' ? 0 : offset);
  return defer(() => source.ledgerEnd()).pipe(
    map((end) => end.offset ?? 0),
    tap((end) => onStatus?.({ type: 'ledger-end', offset: end })),
  );
}
