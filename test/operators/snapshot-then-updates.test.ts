import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, LedgerApiError, PrunedOffsetError, TransportError } from '../../src/errors/index.js';
import { snapshotThenUpdates, type SnapshotElement, type TailStatus } from '../../src/operators/index.js';
import { MemoryCheckpointStore } from '../../src/checkpoints/index.js';
import { activeEntry, fakeSnapshotSource, txWith } from '../support/fake-snapshot-source.js';
import { cp } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const eventFormat = { filtersByParty: { 'Alice::1220aa': { cumulative: [] } }, verbose: false };
const fast = { initialDelayMs: 10, maxDelayMs: 100, factor: 2, jitter: 0 };
const c1 = activeEntry('c1');
const c2 = activeEntry('c2');

describe('snapshotThenUpdates', () => {
  it('emits the snapshot, the marker with the offset the snapshot reported, then the updates after exactly that offset', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = fakeSnapshotSource(() => cold('-a-b|', { a: c1, b: c2 }), 40, [(call) => (call.request.beginExclusive === 40 ? cold('-x-y|', { x: txWith(41, ['c3']), y: cp(42) }) : cold('#'))]);
      const read = snapshotThenUpdates(source, { eventFormat, endInclusive: 42 });
      const e: Record<string, SnapshotElement> = {
        a: { kind: 'active-contract', entry: c1 },
        b: { kind: 'active-contract', entry: c2 },
        m: { kind: 'snapshot-end', offset: 40 },
        x: { kind: 'update', element: txWith(41, ['c3']) },
        y: { kind: 'update', element: cp(42) },
      };
      expectObservable(read).toBe('-a-bmx-y|', e);
    });
  });

  it('passes the event format to the snapshot and an ACS-delta update format (transactions and reassignments) to the updates', async () => {
    const { of } = await import('rxjs');
    const source = fakeSnapshotSource(() => of(c1), 7, [() => of(cp(8))]);
    const got: SnapshotElement[] = [];
    await new Promise<void>((resolve, reject) => snapshotThenUpdates(source, { eventFormat, activeAtOffset: 5, endInclusive: 8, snapshotTransport: 'page' }).subscribe({ next: (e) => got.push(e), error: reject, complete: resolve }));
    expect(source.snapshots[0]?.request).toEqual({ eventFormat, activeAtOffset: 5 });
    expect(source.snapshots[0]?.options?.transport).toBe('page');
    expect(source.calls[0]?.request).toMatchObject({
      beginExclusive: 5,
      updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' }, includeReassignments: eventFormat },
    });
    expect(got.map((e) => e.kind)).toEqual(['active-contract', 'snapshot-end', 'update']);
  });

  it('after the seam resumes like tailUpdates: a broken page is read again after the last delivered offset', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const reset = new TransportError('CONNECTION_RESET', 'connection reset');
      const source = fakeSnapshotSource(() => cold('a|', { a: c1 }), 40, [
        () => cold('x#', { x: txWith(41, ['c3']) }, reset),
        (call) => (call.request.beginExclusive === 41 ? cold('y|', { y: txWith(43, [], ['c1']) }) : cold('#')),
      ]);
      const read = snapshotThenUpdates(source, { eventFormat, endInclusive: 43, retry: fast, idleTimeoutMs: 0 });
      expectObservable(read).toBe('a(mx) 7ms y|', {
        a: { kind: 'active-contract', entry: c1 },
        m: { kind: 'snapshot-end', offset: 40 },
        x: { kind: 'update', element: txWith(41, ['c3']) },
        y: { kind: 'update', element: txWith(43, [], ['c1']) },
      });
    });
  });

  it('with a checkpoint saved, takes no snapshot and resumes the updates after it; a snapshot error is the error', async () => {
    const { of, throwError, lastValueFrom, toArray } = await import('rxjs');
    const store = new MemoryCheckpointStore();
    await store.save({ offset: 50, synchronizerTimes: [], updatedAt: '2026-01-01T00:00:00Z' });
    const source = fakeSnapshotSource(() => of(c1), 40, [(call) => (call.request.beginExclusive === 50 ? of(cp(51)) : throwError(() => new Error('wrong begin')))]);
    const got = await lastValueFrom(snapshotThenUpdates(source, { eventFormat, checkpointStore: store, endInclusive: 51 }).pipe(toArray()));
    expect(got).toEqual([{ kind: 'update', element: cp(51) }]);
    expect(source.snapshots).toHaveLength(0);

    const pruned = new PrunedOffsetError({ requestedOffset: 3, earliestOffset: 10 } as never);
    const failing = fakeSnapshotSource(() => throwError(() => pruned), 40, []);
    await expect(lastValueFrom(snapshotThenUpdates(failing, { eventFormat, activeAtOffset: 3 }))).rejects.toBe(pruned);
  });

  it("'auto' (the default) reads the snapshot through the next transport when one is refused, at the offset the refused read reported", async () => {
    const { of, throwError, lastValueFrom, toArray } = await import('rxjs');
    const legacy404 = new LedgerApiError({ status: 404, text: '{"errors":["GET, uri: /v2/state/active-contracts"],"status":404}' });
    const notAllowed = new LedgerApiError({ status: 405, text: '' });
    let end = 40;
    const source = fakeSnapshotSource((call) => {
      end = 60; // the ledger moves on: a fallback must not move the snapshot with it
      switch (call.options?.transport) {
        case 'websocket':
          return throwError(() => legacy404);
        case 'page':
          return throwError(() => notAllowed);
        default:
          return call.request.activeAtOffset === 40 ? of(c1, c2) : throwError(() => new Error(`snapshot at ${call.request.activeAtOffset}`));
      }
    }, 40, [(call) => (call.request.beginExclusive === 40 ? of(cp(41)) : throwError(() => new Error('wrong begin')))]);
    const statuses: TailStatus[] = [];
    const got = await lastValueFrom(snapshotThenUpdates(source, { eventFormat, endInclusive: 41, onStatus: (s) => statuses.push(s) }).pipe(toArray()));
    expect(end).toBe(60);
    expect(got.map((e) => (e.kind === 'snapshot-end' ? `end ${e.offset}` : e.kind))).toEqual(['active-contract', 'active-contract', 'end 40', 'update']);
    expect(source.snapshots.map((c) => [c.options?.transport, c.request.activeAtOffset])).toEqual([
      ['websocket', undefined],
      ['page', 40],
      ['list', 40],
    ]);
    const selected = statuses.filter((s) => s.type === 'transport-selected');
    expect(selected.slice(0, 3)).toEqual([
      { type: 'transport-selected', transport: 'websocket', requested: 'auto' },
      { type: 'transport-selected', transport: 'page', requested: 'auto', reason: 'upgrade answered 404 without a Canton body (a proxy, or no WebSocket route)', refused: { transport: 'websocket', error: legacy404 } },
      { type: 'transport-selected', transport: 'list', requested: 'auto', reason: 'answered 405 (method not allowed)', refused: { transport: 'page', error: notAllowed } },
    ]);

  });

  it('no fallback for an explicit snapshot transport, for an answer of the transport (a Canton 404), or once the snapshot has started', async () => {
    const { concat, of, tap, throwError, lastValueFrom, toArray } = await import('rxjs');
    const refused = new LedgerApiError({ status: 501, text: '' });
    const explicit = fakeSnapshotSource(() => throwError(() => refused), 40, []);
    await expect(lastValueFrom(snapshotThenUpdates(explicit, { eventFormat, snapshotTransport: 'websocket' }))).rejects.toBe(refused);
    expect(explicit.snapshots).toHaveLength(1);

    const cantonBody = { code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND', cause: 'x', correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 11, grpcCodeValue: 5, retryInfo: null, definiteAnswer: null };
    const answer = new LedgerApiError({ status: 404, body: cantonBody });
    const answered = fakeSnapshotSource(() => throwError(() => answer), 40, []);
    await expect(lastValueFrom(snapshotThenUpdates(answered, { eventFormat }))).rejects.toBe(answer);
    expect(answered.snapshots).toHaveLength(1);

    // a refusal after the first entry (the transport answered) is an error like any other
    const late = fakeSnapshotSource(() => concat(of(c1), throwError(() => refused)), 40, []);
    const got: SnapshotElement[] = [];
    await expect(lastValueFrom(snapshotThenUpdates(late, { eventFormat, onStatus: () => undefined }).pipe(tap((e) => got.push(e)), toArray()))).rejects.toBe(refused);
    expect(late.snapshots).toHaveLength(1);
    expect(got).toEqual([{ kind: 'active-contract', entry: c1 }]);
  });

  it('rejects bad options at the call', () => {
    const source = fakeSnapshotSource(() => {
      throw new Error('not called');
    }, 1, []);
    expect(() => snapshotThenUpdates(source, {})).toThrow(InvalidArgumentError);
    expect(() => snapshotThenUpdates(source, { eventFormat, updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } })).toThrow(InvalidArgumentError);
    expect(() => snapshotThenUpdates(source, { eventFormat, activeAtOffset: -1 })).toThrow(InvalidArgumentError);
    expect(() => snapshotThenUpdates(source, { updateFormat: { includeTopologyEvents: {} } as never })).toThrow(InvalidArgumentError);
  });
});
