import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, PrunedOffsetError, TransportError } from '../../src/errors/index.js';
import { snapshotThenUpdates, type SnapshotElement } from '../../src/operators/index.js';
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
