import { of, type Observable } from 'rxjs';
import type { UpdatesPage, UpdatesOptions, UpdatesSource } from '../../src/operators/index.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../../src/schemas/index.js';

/** A transaction element at `offset` (only the fields the operators look at). */
export function tx(offset: number, synchronizerId = 'global::1220aa', recordTime = '2026-01-01T00:00:00Z'): JsGetUpdatesResponse {
  return {
    update: { Transaction: { value: { updateId: `u${offset}`, offset, synchronizerId, recordTime, events: [], effectiveAt: recordTime } } },
  } as unknown as JsGetUpdatesResponse;
}

/** An offset checkpoint element at `offset`. */
export function cp(offset: number, synchronizerTimes: { synchronizerId: string; recordTime: string }[] = []): JsGetUpdatesResponse {
  return { update: { OffsetCheckpoint: { value: { offset, synchronizerTimes } } } } as unknown as JsGetUpdatesResponse;
}

/** One recorded call of a fake source. */
export interface RecordedCall {
  readonly request: GetUpdatesRequest;
  readonly options: UpdatesOptions | undefined;
}

/**
 * A fake {@link UpdatesSource}: each `updates()` call returns the next page from `pages` (a function of
 * the request, so a test can build cold marbles), and every call is recorded.
 */
export function fakeSource(
  pages: ((call: RecordedCall, index: number) => Observable<JsGetUpdatesResponse>)[],
  ledgerEnd: () => Observable<{ offset: number }> = () => of({ offset: 0 }),
): UpdatesSource & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  return {
    calls,
    updates(request, options) {
      const call = { request, options };
      calls.push(call);
      const page = pages[calls.length - 1];
      if (!page) throw new Error(`unexpected call #${calls.length}: ${JSON.stringify(request)}`);
      return page(call, calls.length - 1);
    },
    ledgerEnd: () => ledgerEnd(),
  };
}

/** One recorded call of a {@link fakeTransportSource}. */
export interface TransportCall {
  readonly transport: 'websocket' | 'page' | 'list';
  readonly request: Record<string, unknown>;
  readonly options: Record<string, unknown> | undefined;
}

/**
 * A fake {@link UpdatesSource} offering all three transports: every call of `updates()` (over `list` or, with
 * `transport: 'websocket'`, a WebSocket) or `updatesPage()` takes the next answer of ONE shared sequence `answers` (so a test states the order of calls
 * across transports) and is recorded with its transport (and its options without `transport`); an answer
 * for the wrong transport fails the test.
 */
export function fakeTransportSource(
  answers: ((call: TransportCall) => Observable<unknown>)[],
  ledgerEnd: () => Observable<{ offset: number }> = () => of({ offset: 0 }),
): UpdatesSource & { calls: TransportCall[] } {
  const calls: TransportCall[] = [];
  const next = (transport: TransportCall['transport'], request: unknown, options: unknown) => {
    const call = { transport, request: request as Record<string, unknown>, options: options as Record<string, unknown> | undefined };
    calls.push(call);
    const answer = answers[calls.length - 1];
    if (!answer) throw new Error(`unexpected ${transport} call #${calls.length}: ${JSON.stringify(request)}`);
    return answer(call);
  };
  return {
    calls,
    transports: ['list', 'websocket'],
    updates: (request, options) => {
      const { transport = 'list', ...rest } = options ?? {};
      return next(transport, request, options === undefined ? undefined : rest) as Observable<JsGetUpdatesResponse>;
    },
    updatesPage: (request, options) => next('page', request, options) as Observable<UpdatesPage>,
    ledgerEnd: () => ledgerEnd(),
  };
}
