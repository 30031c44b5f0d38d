import { Observable, of, type Observer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, LedgerApiError, TransportError } from '../../src/errors/index.js';
import { readDescending, tailUpdates, type TailStatus, type TailUpdatesConfig, type UpdatesPage } from '../../src/operators/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { cp, fakeSource, fakeTransportSource, tx, type TransportCall } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';
import { narrowTransportChoice } from '../../src/operators/internal/starting-transport-choice.js';
import { updateOffset } from '../../src/updates/update-offset.js';

const updateFormat = { includeTransactions: { eventFormat: { filtersByParty: { 'Alice::1220aa': {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };
const reset = new TransportError('CONNECTION_RESET', 'connection reset');
const config = (extra: Partial<TailUpdatesConfig> = {}): TailUpdatesConfig => ({ updateFormat, pageLimit: 3, retry: { initialDelayMs: 10, maxDelayMs: 100, jitter: 0 }, ...extra });

/** An answer of the participant that is not a Canton error: how a route it does not have is answered. */
const refused = (status: number) => new LedgerApiError({ status, text: '{"errors":["GET, uri: /v2/updates"],"status":404}', request: 'GET /v2/updates (WebSocket)' });
function canton(status: number, code: string, category: number) {
  return new LedgerApiError({
    status,
    body: { code, cause: code, correlationId: null, traceId: null, context: {}, resources: [], errorCategory: category, grpcCodeValue: 5, retryInfo: category === 2 ? '1 second' : null, definiteAnswer: null },
  });
}
const page = (updates: JsGetUpdatesResponse[], highest: number, token?: string): UpdatesPage => ({ updates, lowestPageOffsetExclusive: 0, highestPageOffsetInclusive: highest, nextPageToken: token });
const selected = (statuses: TailStatus[]) => statuses.filter((s) => s.type === 'transport-selected');
/** Subscribes inside a TestScheduler run and records `[frame, offset]` of every element, and how it ended. */
function timeline(scheduler: { now(): number }, source: Observable<JsGetUpdatesResponse>): { seen: [number, number][]; end?: [number, string] } {
  const out: { seen: [number, number][]; end?: [number, string] } = { seen: [] };
  source.subscribe({
    next: (e) => out.seen.push([scheduler.now(), updateOffset(e) as number]),
    error: (e: unknown) => (out.end = [scheduler.now(), (e as { code?: string }).code ?? String(e)]),
    complete: () => (out.end = [scheduler.now(), 'complete']),
  });
  return out;
}
const noMetrics = (statuses: TailStatus[]) => statuses.filter((s) => s.type !== 'progress' && s.type !== 'request' && s.type !== 'ledger-end');

describe('the transport of a read', () => {
  it("'auto' reads over the WebSocket when the source offers it, and resumes after the last delivered element (a checkpoint too)", () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const statuses: TailStatus[] = [];
      const source = fakeTransportSource([() => cold('-a-b-c-#', { a: tx(1), b: tx(4), c: cp(6) }, reset), () => cold('-d-', { d: tx(9) })], () => of({ offset: 6 }));
      expectObservable(tailUpdates(source, config({ onStatus: (s) => statuses.push(s) })), '^ 30ms !').toBe('-a-b-c 12ms d', { a: tx(1), b: tx(4), c: cp(6), d: tx(9) });
      flush();
      expect(source.calls.map((c) => [c.transport, c.request['beginExclusive'], c.request['endInclusive']])).toEqual([['websocket', 0, undefined], ['websocket', 6, undefined]]);
      expect(noMetrics(statuses)).toEqual([
        { type: 'transport-selected', transport: 'websocket', requested: 'auto' },
        { type: 'resumed', fromOffset: 0, attempt: 0, transport: 'websocket' },
        { type: 'caught-up', offset: 6 },
        { type: 'retrying', attempt: 1, delayMs: 10, error: reset },
        { type: 'resumed', fromOffset: 6, attempt: 1, transport: 'websocket' },
      ]);
    });
  });

  it("a source of the previous release (the deprecated streamUpdates(), no transports) still streams; a source without either reads the list", () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const websocketCalls: unknown[] = [];
      const listCalls: unknown[] = [];
      const old = {
        updates: (request: unknown) => (listCalls.push(request), cold<JsGetUpdatesResponse>('-')),
        // the deprecated member under test
        streamUpdates: (request: unknown) => (websocketCalls.push(request), cold('-a-b-', { a: tx(1), b: tx(2) })),
        ledgerEnd: () => of({ offset: 0 }),
      };
      expectObservable(tailUpdates(old, config({ transport: 'websocket' })), '^ 10ms !').toBe('-a-b-', { a: tx(1), b: tx(2) });
      flush();
      expect([websocketCalls.length, listCalls.length]).toEqual([1, 0]);
      const listOnly = fakeSource([() => cold('-a|', { a: tx(1) })]);
      expect(() => tailUpdates(listOnly, config({ transport: 'websocket' })).subscribe()).toThrow(InvalidArgumentError);
    });
  });

  it("'auto' falls back once per refusal, at once and from the same start: WebSocket refused → page refused → list", () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const statuses: TailStatus[] = [];
      let ends = 0;
      const source = fakeTransportSource(
        [() => cold('-#', {}, refused(404)), () => cold('--#', {}, refused(501)), () => cold('-a-b|', { a: tx(21), b: tx(22) }), () => cold('-')],
        () => of({ offset: 20 + ends++ * 5 }),
      );
      const result = tailUpdates(source, config({ beginExclusive: 'ledger-end', onStatus: (s) => statuses.push(s) }));
      expectObservable(result, '^ 20ms !').toBe('----a-b', { a: tx(21), b: tx(22) });
      flush();
      expect(source.calls.map((c) => c.transport)).toEqual(['websocket', 'page', 'list', 'list']);
      // the ledger end was resolved once: the page read starts where the WebSocket would have
      expect(source.calls.map((c) => c.request['beginExclusive'] ?? c.request['beginOffsetExclusive'])).toEqual([20, 20, 20, 22]);
      expect(selected(statuses)).toEqual([
        { type: 'transport-selected', transport: 'websocket', requested: 'auto' },
        { type: 'transport-selected', transport: 'page', requested: 'auto', reason: 'upgrade answered 404 without a Canton body (a proxy, or no WebSocket route)', refused: { transport: 'websocket', error: refused(404) } },
        { type: 'transport-selected', transport: 'list', requested: 'auto', reason: 'answered 501 (not implemented)', refused: { transport: 'page', error: refused(501) } },
      ]);
      expect(statuses.some((s) => s.type === 'retrying')).toBe(false);
    });
  });

  it('does not fall back once the transport has answered, nor for a Canton 404, nor with an explicit transport', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const later = fakeTransportSource([() => cold('-a-#', { a: tx(1) }, refused(404))]);
      expectObservable(tailUpdates(later, config())).toBe('-a-#', { a: tx(1) }, refused(404));
      const missing = canton(404, 'PACKAGE_NAMES_NOT_FOUND', 11);
      const notFound = fakeTransportSource([() => cold('-#', {}, missing)]);
      expectObservable(tailUpdates(notFound, config())).toBe('-#', {}, missing);
      const explicit = fakeTransportSource([() => cold('-#', {}, refused(426))]);
      expectObservable(tailUpdates(explicit, config({ transport: 'websocket' }))).toBe('-#', {}, refused(426));
    });
  });

  it("'auto' uses what the source offers; an explicit transport it does not offer is rejected at once", () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const listOnly = fakeSource([() => cold('-a|', { a: tx(1) }), () => cold<JsGetUpdatesResponse>('-')]);
      expectObservable(tailUpdates(listOnly, config()), '^ 3ms !').toBe('-a', { a: tx(1) });
    });
    const listOnly = fakeSource([]);
    expect(() => tailUpdates(listOnly, config({ transport: 'websocket' }))).toThrow(InvalidArgumentError);
    expect(() => tailUpdates(fakeTransportSource([]), { filter: { filtersByParty: {} }, transport: 'page' })).toThrow(/needs an updateFormat/);
    expect(() => tailUpdates(fakeTransportSource([]), config({ transport: 'carrier-pigeon' as never }))).toThrow(InvalidArgumentError);
  });

  it('page: follows the token with the same offsets, polls once caught up, and restarts after the last delivered offset when a page fails', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const source = fakeTransportSource([
        () => cold('-(p|)', { p: page([tx(1), tx(2), tx(3)], 3, 'T1') }),
        () => cold('-(p|)', { p: page([tx(5)], 9, 'T2') }),
        () => cold('-(p|)', { p: page([], 9, 'T2') }),
        () => cold('-#', {}, reset),
        () => cold('-(p|)', { p: page([tx(12)], 12, 'T3') }),
        () => cold('-'),
      ]);
      const result = timeline(scheduler, tailUpdates(source, config({ transport: 'page', pollIntervalMs: 50 })));
      flush();
      // a full page continues at once; a short one (caught up) waits 50 before the next; a failed one waits its backoff (10)
      expect(result.seen).toEqual([[1, 1], [1, 2], [1, 3], [2, 5], [115, 12]]);
      const sent = source.calls.map((c) => [c.request['beginOffsetExclusive'], c.request['maxPageSize'], c.request['pageToken']]);
      expect(sent).toEqual([[0, 3, undefined], [0, 3, 'T1'], [0, 3, 'T2'], [0, 3, 'T2'], [5, 3, undefined], [5, 3, 'T3']]);
    });
  });

  it('page: a refused token (INVALID_UPDATES_PAGE_TOKEN) restarts at once after the last delivered offset; a bounded chain ends with its last page', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const source = fakeTransportSource(
        [
          () => cold('-(p|)', { p: page([tx(1), tx(2), tx(3)], 3, 'T1') }),
          () => cold('-#', {}, canton(400, 'INVALID_UPDATES_PAGE_TOKEN', 8)),
          () => cold('-(p|)', { p: page([tx(7)], 8) }),
        ],
        () => of({ offset: 8 }),
      );
      const result = timeline(scheduler, tailUpdates(source, config({ transport: 'page', endInclusive: 8 })));
      flush();
      expect(result).toEqual({ seen: [[1, 1], [1, 2], [1, 3], [3, 7]], end: [3, 'complete'] });
      expect(source.calls.map((c) => [c.request['beginOffsetExclusive'], c.request['endOffsetInclusive'], c.request['pageToken']])).toEqual([[0, 8, undefined], [0, 8, 'T1'], [3, 8, undefined]]);
    });
  });

  it('websocket: reconnects with a fresh token shortly before it expires, and at once after ACCESS_TOKEN_EXPIRED', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const statuses: TailStatus[] = [];
      const opening = (expiresAt: number | undefined, marbles: string, values: Record<string, JsGetUpdatesResponse>, error?: unknown) => (call: TransportCall) =>
        new Observable<JsGetUpdatesResponse>((subscriber) => {
          (call.options?.['onOpen'] as (c: { tokenExpiresAt: number | undefined }) => void)({ tokenExpiresAt: expiresAt });
          return cold(marbles, values, error).subscribe(subscriber as Observer<JsGetUpdatesResponse>);
        });
      const expired = canton(409, 'ACCESS_TOKEN_EXPIRED', 2);
      const source = fakeTransportSource([
        opening(100_000, '-a 9ms b-', { a: tx(1), b: tx(2) }), // token valid until 100 s: reconnect at 70 s (margin 30 s)
        opening(1_000_000, '-c-#', { c: tx(3) }, expired),
        opening(undefined, '-d-', { d: tx(4) }),
      ]);
      const result = timeline(scheduler, tailUpdates(source, config({ tokenRefreshMarginMs: 30_000, onStatus: (s) => statuses.push(s) })));
      flush();
      expect(result.seen).toEqual([[1, 1], [11, 2], [70_001, 3], [70_004, 4]]);
      expect(source.calls.map((c) => c.request['beginExclusive'])).toEqual([0, 2, 3]);
      expect(noMetrics(statuses).filter((s) => s.type === 'retrying')).toEqual([{ type: 'retrying', attempt: 1, delayMs: 0, error: expired }]);
    });
  });

  it('websocket: pauses the socket while the handler is behind, and resumes it once it drained', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const pausedSeen: boolean[] = [];
      const source = fakeTransportSource([
        (call) =>
          new Observable<JsGetUpdatesResponse>((subscriber) => {
            const sub = (call.options?.['paused'] as Observable<boolean>).subscribe((p) => pausedSeen.push(p));
            for (let i = 1; i <= 200; i++) subscriber.next(tx(i));
            return sub;
          }),
      ]);
      const got: JsGetUpdatesResponse[] = [];
      tailUpdates(source, config({ handler: () => cold('-|') })).subscribe((e) => got.push(e));
      flush();
      expect(got).toHaveLength(200);
      expect(pausedSeen).toEqual([false, true, false]);
    });
  });

  it('readDescending: over the WebSocket one bounded descending stream; over pages the descending token chain', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const ws = fakeTransportSource([() => cold('-c-#', { c: tx(9) }, reset), () => cold('-b-a|', { b: tx(5), a: tx(2) })], () => of({ offset: 9 }));
      const overWs = timeline(scheduler, readDescending(ws, { updateFormat, retry: { initialDelayMs: 10, jitter: 0 } }));
      const pages = fakeTransportSource([() => cold('-(p|)', { p: page([tx(9), tx(5)], 9, 'D1') }), () => cold('-(p|)', { p: page([tx(2)], 9) })]);
      const overPages = timeline(scheduler, readDescending(pages, { updateFormat, endInclusive: 9, pageLimit: 2, transport: 'page' }));
      flush();
      expect(overWs).toEqual({ seen: [[1, 9], [14, 5], [16, 2]], end: [17, 'complete'] });
      expect(overPages).toEqual({ seen: [[1, 9], [1, 5], [2, 2]], end: [2, 'complete'] });
      expect(ws.calls.map((c) => [c.transport, c.request['endInclusive'], c.request['descendingOrder']])).toEqual([['websocket', 9, true], ['websocket', 8, true]]);
      expect(pages.calls.map((c) => [c.request['endOffsetInclusive'], c.request['descendingOrder'], c.request['pageToken']])).toEqual([[9, true, undefined], [9, true, 'D1']]);
    });
  });

  describe("'auto' that always finishes (docs/transports.md)", () => {
    const handshake = new TransportError('HANDSHAKE_TIMEOUT', 'GET /v2/updates (WebSocket): WebSocket handshake got no answer within 3000 ms', { request: 'GET /v2/updates (WebSocket)' });
    const bare502 = new LedgerApiError({ status: 502, text: '<html><body>502 Bad Gateway</body></html>', request: 'GET /v2/updates (WebSocket)' });
    const bounded = (extra: Partial<TailUpdatesConfig> = {}) => config({ endInclusive: 2, webSocketCoolOffMs: 1_000, ...extra });

    it('a handshake without an answer falls back at once; the reads of the same client skip the WebSocket within the cool-off, and try it again after', () => {
      const scheduler = createTestScheduler();
      scheduler.run(({ cold, flush }) => {
        const pageAnswer = () => cold('-(p|)', { p: page([tx(1), tx(2)], 2) });
        const source = fakeTransportSource(
          [() => cold('---#', {}, handshake), pageAnswer, pageAnswer, () => cold('-a-b|', { a: tx(1), b: tx(2) })],
          () => of({ offset: 2 }),
        );
        const statuses: TailStatus[][] = [[], [], []];
        const reads: ReturnType<typeof timeline>[] = [];
        const at = (ms: number, i: number) => scheduler.schedule(() => void (reads[i] = timeline(scheduler, tailUpdates(source, bounded({ onStatus: (s) => statuses[i]?.push(s) })))), ms);
        at(0, 0);
        at(100, 1); // 97 ms after the fallback: within the cool-off
        at(1_500, 2); // after it
        flush();
        const [first, second, third] = reads;
        // at once: the page read starts in the frame the handshake failed, with no retry in between
        expect(first).toEqual({ seen: [[4, 1], [4, 2]], end: [4, 'complete'] });
        expect(second).toEqual({ seen: [[101, 1], [101, 2]], end: [101, 'complete'] });
        expect(third).toEqual({ seen: [[1_501, 1], [1_503, 2]], end: [1_504, 'complete'] });
        expect(source.calls.map((c) => c.transport)).toEqual(['websocket', 'page', 'page', 'websocket']);
        expect(statuses.map(selected)).toEqual([
          [
            { type: 'transport-selected', transport: 'websocket', requested: 'auto' },
            { type: 'transport-selected', transport: 'page', requested: 'auto', reason: 'WebSocket handshake got no answer within 3000 ms', refused: { transport: 'websocket', error: handshake } },
          ],
          [{ type: 'transport-selected', transport: 'page', requested: 'auto', reason: 'websocket skipped: WebSocket handshake got no answer within 3000 ms 97 ms ago (tried again 1000 ms after that)' }],
          [{ type: 'transport-selected', transport: 'websocket', requested: 'auto' }],
        ]);
        expect(statuses.flat().some((s) => s.type === 'retrying')).toBe(false);
      });
    });

    it("an upgrade a proxy answers without a Canton body falls back at once; the participant's own refusal (a Canton body) is retried, never a fallback", () => {
      const scheduler = createTestScheduler();
      scheduler.run(({ cold, flush }) => {
        const proxied = fakeTransportSource([() => cold('-#', {}, bare502), () => cold('-(p|)', { p: page([tx(1), tx(2)], 2) })], () => of({ offset: 2 }));
        const statuses: TailStatus[] = [];
        const overProxy = timeline(scheduler, tailUpdates(proxied, bounded({ onStatus: (s) => statuses.push(s) })));
        const overloaded = canton(503, 'PARTICIPANT_BACKPRESSURE', 2);
        const participant = fakeTransportSource([() => cold('-#', {}, overloaded), () => cold('-a-b|', { a: tx(1), b: tx(2) })], () => of({ offset: 2 }));
        const direct = timeline(scheduler, tailUpdates(participant, bounded({ retry: { initialDelayMs: 10, maxDelayMs: 100, jitter: 0 } })));
        flush();
        expect(overProxy).toEqual({ seen: [[2, 1], [2, 2]], end: [2, 'complete'] });
        expect(selected(statuses)[1]).toEqual({ type: 'transport-selected', transport: 'page', requested: 'auto', reason: 'upgrade answered 502 by a proxy (no Canton body)', refused: { transport: 'websocket', error: bare502 } });
        expect(participant.calls.map((c) => c.transport)).toEqual(['websocket', 'websocket']);
        expect(direct.end?.[1]).toBe('complete');
      });
    });

    it("on a participant without get-updates-page (3.4) the chain is websocket → list, from the client's version", () => {
      const scheduler = createTestScheduler();
      scheduler.run(({ cold, flush }) => {
        const base = fakeTransportSource(
          [() => cold('--#', {}, handshake), () => cold('-a-(b|)', { a: tx(1), b: tx(2) }), () => cold('-(ba|)', { b: tx(2), a: tx(1) })],
          () => of({ offset: 2 }),
        );
        let lookups = 0;
        const source = Object.assign(base, {
          participantVersion: () => {
            lookups++;
            return of({ version: '3.4.11', supports: (operation: string) => operation !== 'updatesPage' });
          },
        });
        const statuses: TailStatus[] = [];
        const read = timeline(scheduler, tailUpdates(source, bounded({ onStatus: (s) => statuses.push(s) })));
        // a later read of the same client, within the cool-off: neither the WebSocket nor get-updates-page
        const later: TailStatus[] = [];
        let descending: ReturnType<typeof timeline> | undefined;
        scheduler.schedule(() => void (descending = timeline(scheduler, readDescending(source, { updateFormat, onStatus: (s) => later.push(s) }))), 10);
        flush();
        expect(read).toEqual({ seen: [[3, 1], [5, 2]], end: [5, 'complete'] });
        expect(descending).toEqual({ seen: [[11, 2], [11, 1]], end: [11, 'complete'] });
        expect(base.calls.map((c) => c.transport)).toEqual(['websocket', 'list', 'list']);
        expect(selected(statuses)).toEqual([
          { type: 'transport-selected', transport: 'websocket', requested: 'auto', reason: 'page skipped: participant 3.4.11 has no POST /v2/updates/get-updates-page' },
          { type: 'transport-selected', transport: 'list', requested: 'auto', reason: 'WebSocket handshake got no answer within 3000 ms', refused: { transport: 'websocket', error: handshake } },
        ]);
        expect(selected(later)).toEqual([
          {
            type: 'transport-selected',
            transport: 'list',
            requested: 'auto',
            reason: 'websocket skipped: WebSocket handshake got no answer within 3000 ms 8 ms ago (tried again 300000 ms after that); page skipped: participant 3.4.11 has no POST /v2/updates/get-updates-page',
          },
        ]);
        expect(lookups).toBe(2);
      });
    });

    it('narrowTransportChoice: leaves out what it is told to skip, never the last transport, and never an explicit one', () => {
      const auto = { requested: 'auto' as const, current: 'websocket' as const, fallbacks: ['page', 'list'] as const };
      expect(narrowTransportChoice(auto, () => undefined)).toEqual({ choice: auto, reason: undefined });
      expect(narrowTransportChoice(auto, (t) => (t === 'page' ? 'no page' : undefined))).toEqual({ choice: { requested: 'auto', current: 'websocket', fallbacks: ['list'] }, reason: 'page skipped: no page' });
      expect(narrowTransportChoice(auto, () => 'nothing works')).toEqual({ choice: { requested: 'auto', current: 'list', fallbacks: [] }, reason: 'websocket skipped: nothing works; page skipped: nothing works' });
      const explicit = { requested: 'websocket' as const, current: 'websocket' as const, fallbacks: [] };
      expect(narrowTransportChoice(explicit, () => 'skip')).toEqual({ choice: explicit, reason: undefined });
    });

    it('an explicit websocket is never replaced: a handshake without an answer is retried with backoff', () => {
      const scheduler = createTestScheduler();
      scheduler.run(({ cold, flush }) => {
        const source = fakeTransportSource([() => cold('--#', {}, handshake), () => cold('-a-b|', { a: tx(1), b: tx(2) })], () => of({ offset: 2 }));
        const statuses: TailStatus[] = [];
        const read = timeline(scheduler, tailUpdates(source, bounded({ transport: 'websocket', onStatus: (s) => statuses.push(s) })));
        flush();
        expect(read).toEqual({ seen: [[13, 1], [15, 2]], end: [16, 'complete'] });
        expect(source.calls.map((c) => c.transport)).toEqual(['websocket', 'websocket']);
        expect(statuses.filter((s) => s.type === 'retrying')).toEqual([{ type: 'retrying', attempt: 1, delayMs: 10, error: handshake }]);
      });
    });
  });
});
