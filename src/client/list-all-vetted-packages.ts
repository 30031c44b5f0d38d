import { concatMap, defer, EMPTY, expand, throwError, type Observable } from 'rxjs';
import { ErrorCodes, ProtocolError } from '../errors/index.js';
import type { ListVettedPackagesRequest, ListVettedPackagesResponse, VettedPackages } from '../schemas/index.js';
import { fromAbortable } from './from-abortable.js';

/** Fetches one page of the vetting list; must honour `signal`. */
export type FetchVettedPackagesPage = (request: ListVettedPackagesRequest, signal: AbortSignal) => Promise<ListVettedPackagesResponse>;

/**
 * Walks every page of `POST /v2/package-vetting/list` and emits each `VettedPackages` element in order.
 *
 * ```
 * requests:  p1--p2--p3(empty)|
 * emits:     a-b--c-d--|
 * ```
 *
 * Starts from `request.pageToken` (or the beginning) and follows `nextPageToken`. The server's last page is
 * an EMPTY page (a non-empty page always carries a token, server-behavior §2.3), so the walk completes on
 * the first empty page or empty token. Errors with the page's error, or with `ProtocolError`
 * `PAGE_TOKEN_NOT_ADVANCING` (after emitting that page's elements) when a page returns a token that was
 * already requested in this walk. Cold: every subscription starts over. Pages are fetched one at a time;
 * unsubscribing aborts the in-flight request.
 *
 * @param fetchPage - sends one page request.
 * @param request - the first request (filters, `pageSize`, optional starting `pageToken`).
 */
export function listAllVettedPackages(fetchPage: FetchVettedPackagesPage, request: ListVettedPackagesRequest): Observable<VettedPackages> {
  return defer(() => {
    const requested = new Set<string>();
    const page = (pageToken: string) => {
      requested.add(pageToken);
      return fromAbortable((signal) => fetchPage({ ...request, pageToken }, signal));
    };
    return page(request.pageToken ?? '').pipe(
      expand((response) => {
        const next = response.nextPageToken ?? '';
        if ((response.vettedPackages ?? []).length === 0 || next === '') return EMPTY;
        if (requested.has(next)) {
          return throwError(() => new ProtocolError(
            ErrorCodes.PAGE_TOKEN_NOT_ADVANCING,
            'POST /v2/package-vetting/list returned a page token that was already requested; stopping to avoid a loop',
          ));
        }
        return page(next);
      }),
      concatMap((response) => response.vettedPackages ?? []),
    );
  });
}
