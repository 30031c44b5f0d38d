import { concatMap, defer, EMPTY, expand, filter, of, take, throwError, type Observable } from 'rxjs';
import { ErrorCodes, ProtocolError } from '../../errors/index.js';
import { fromAbortable } from '../http/from-abortable.js';

/** How {@link walkPages} walks. */
export interface PageWalk<P> {
  /** Sends the request of one page (`pageToken` undefined: the first page, as the request has it); must honour `cancel`. */
  readonly fetch: (pageToken: string | undefined, cancel: AbortSignal) => Promise<P>;
  /** The token of the page after `page`, or `undefined` when `page` is the last. */
  readonly next: (page: P) => string | undefined;
  /** While its latest value is `true`, no further page is asked for. */
  readonly paused?: Observable<boolean> | undefined;
  /** The token the first page is asked with, if any (counts as requested). */
  readonly firstToken?: string | undefined;
  /** The endpoint, for the error message (`POST /v2/package-vetting/list`). */
  readonly endpoint: string;
}

/**
 * One walk over the pages of a paged endpoint, the client's one attempt (nothing is retried): asks for the
 * first page, then for the page of each token `next` gives, one page at a time, each once the previous one
 * was emitted and `paused` is not `true` (a slow consumer holds one page at most); emits each page.
 *
 * Completes after the page for which `next` gives no token. Errors with the first failed page, or with
 * `ProtocolError` `PAGE_TOKEN_NOT_ADVANCING` (after emitting that page) when a page gives a token that was
 * already asked for in this walk (the walk would not end). Cold: each subscription walks from the start.
 * Unsubscribing aborts the page request in flight.
 */
export function walkPages<P>(walk: PageWalk<P>): Observable<P> {
  const { fetch, next, paused, firstToken, endpoint } = walk;
  return defer(() => {
    const requested = new Set<string>(firstToken === undefined ? [] : [firstToken]);
    const resumed: Observable<unknown> = paused === undefined ? of(0) : paused.pipe(filter((p) => !p), take(1));
    const page = (token: string | undefined): Observable<P> => resumed.pipe(concatMap(() => fromAbortable((cancel) => fetch(token, cancel))));
    return page(firstToken).pipe(
      expand((p) => {
        const token = next(p);
        if (token === undefined) return EMPTY;
        if (requested.has(token)) {
          return throwError(() => new ProtocolError(ErrorCodes.PAGE_TOKEN_NOT_ADVANCING, `${endpoint} returned a page token that was already requested; stopping to avoid a loop`));
        }
        requested.add(token);
        return page(token);
      }),
    );
  });
}
