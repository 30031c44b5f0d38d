import { Subject, firstValueFrom, lastValueFrom, of, throwError, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { MemoryCheckpointStore } from '../../src/checkpoints/index.js';
import { trackCheckpoint, type Checkpoint, type CheckpointStore } from '../../src/operators/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { cp, tx } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

/** A store on virtual time: each save takes `saveFrames` frames and is recorded with its start frame. */
function virtualStore(cold: (m: string) => Observable<void>, saveMarble = '-|') {
  const saves: Checkpoint[] = [];
  const store: CheckpointStore = {
    load: () => of(undefined),
    save: (c) => {
      saves.push(c);
      return cold(saveMarble);
    },
  };
  return { store, saves };
}

describe('trackCheckpoint', () => {
  it('passes elements through and saves every n elements and once more at completion', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold);
      const source = cold('-a-b-c-d-e|', { a: tx(1), b: tx(3), c: tx(7), d: tx(9), e: tx(12) });
      expectObservable(source.pipe(trackCheckpoint(store, { every: 2, everyMs: 0 }))).toBe('-a-b-c-d-e-|', {
        a: tx(1),
        b: tx(3),
        c: tx(7),
        d: tx(9),
        e: tx(12),
      });
      cold('20ms |').subscribe({ complete: () => expect(saves.map((s) => s.offset)).toEqual([3, 9, 12]) });
    });
  });

  it('starts afresh on each subscription (resubscribe): its own count and timer, saves of its own elements', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold);
      const tracked = cold('-a-b|', { a: tx(1), b: tx(3) }).pipe(trackCheckpoint(store, { every: 2, everyMs: 0 }));
      expectObservable(tracked).toBe('-a-b|', { a: tx(1), b: tx(3) });
      expectObservable(tracked, '10ms ^').toBe('11ms a-b|', { a: tx(1), b: tx(3) });
      cold('20ms |').subscribe({ complete: () => expect(saves.map((s) => s.offset)).toEqual([3, 3]) });
    });
  });

  it('saves on the timer when fewer than n elements arrive, and only when the position moved', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold);
      const source = cold('-a 20ms b 30ms -', { a: tx(5), b: tx(6) });
      expectObservable(source.pipe(trackCheckpoint(store, { every: 100, everyMs: 10 })), '^ 60ms !').toBe('-a 20ms b', { a: tx(5), b: tx(6) });
      cold('62ms |').subscribe({
        complete: () => {
          expect(saves.map((s) => s.offset)).toEqual([5, 6]);
          expect(saves.map((s) => s.updatedAt)).toEqual([new Date(1).toISOString(), new Date(22).toISOString()]);
        },
      });
    });
  });

  it('never overlaps saves: a save requested during another waits and takes the newest position', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold, '-----|');
      const source = cold('-a-b-c|', { a: tx(1), b: tx(2), c: tx(3) });
      expectObservable(source.pipe(trackCheckpoint(store, { every: 1, everyMs: 0 }))).toBe('-a-b-c 5ms |', { a: tx(1), b: tx(2), c: tx(3) });
      cold('30ms |').subscribe({ complete: () => expect(saves.map((s) => s.offset)).toEqual([1, 3]) });
    });
  });

  it('records the synchronizer times of checkpoints and updates', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold);
      const source = cold('-a-b|', {
        a: tx(4, 'global::1', '2026-01-01T00:00:01Z'),
        b: cp(8, [
          { synchronizerId: 'global::1', recordTime: '2026-01-01T00:00:05Z' },
          { synchronizerId: 'other::2', recordTime: '2026-01-01T00:00:03Z' },
        ]),
      });
      expectObservable(source.pipe(trackCheckpoint(store, { every: 1, everyMs: 0 }))).toBe('-a-b|', {
        a: tx(4, 'global::1', '2026-01-01T00:00:01Z'),
        b: cp(8, [
          { synchronizerId: 'global::1', recordTime: '2026-01-01T00:00:05Z' },
          { synchronizerId: 'other::2', recordTime: '2026-01-01T00:00:03Z' },
        ]),
      });
      cold('10ms |').subscribe({
        complete: () =>
          expect(saves.map((s) => [s.offset, s.synchronizerTimes])).toEqual([
            [4, [{ synchronizerId: 'global::1', recordTime: '2026-01-01T00:00:01Z' }]],
            [
              8,
              [
                { synchronizerId: 'global::1', recordTime: '2026-01-01T00:00:05Z' },
                { synchronizerId: 'other::2', recordTime: '2026-01-01T00:00:03Z' },
              ],
            ],
          ]),
      });
    });
  });

  it('saves what was processed before an error, then errors', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold);
      const boom = new Error('boom');
      const source = cold('-a-#', { a: tx(11) }, boom);
      expectObservable(source.pipe(trackCheckpoint(store, { every: 10, everyMs: 0 }))).toBe('-a--#', { a: tx(11) }, boom);
      cold('10ms |').subscribe({ complete: () => expect(saves.map((s) => s.offset)).toEqual([11]) });
    });
  });

  it('completes at once on an empty source and saves nothing', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold);
      expectObservable(cold<JsGetUpdatesResponse>('|').pipe(trackCheckpoint(store))).toBe('|');
      cold('2ms |').subscribe({ complete: () => expect(saves).toEqual([]) });
    });
  });

  it('never emits or saves for a source that never emits; unsubscribing tears down source and timer', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const { store, saves } = virtualStore(cold);
      const source = cold<JsGetUpdatesResponse>('-');
      expectObservable(source.pipe(trackCheckpoint(store, { everyMs: 5 })), '^ 20ms !').toBe('');
      expectSubscriptions(source.subscriptions).toBe('^ 20ms !');
      cold('30ms |').subscribe({ complete: () => expect(saves).toEqual([]) });
    });
  });

  it('does not save on unsubscribe (complete the source to flush)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { store, saves } = virtualStore(cold);
      const source = cold('-a-b-', { a: tx(1), b: tx(2) });
      expectObservable(source.pipe(trackCheckpoint(store, { every: 100, everyMs: 0 })), '^ 5ms !').toBe('-a-b', { a: tx(1), b: tx(2) });
      cold('10ms |').subscribe({ complete: () => expect(saves).toEqual([]) });
    });
  });

  it('fails with CHECKPOINT_STORE_FAILED when a save fails', async () => {
    const store: CheckpointStore = { load: () => Promise.resolve(undefined), save: () => throwError(() => new Error('disk full')) };
    await expect(lastValueFrom(of(tx(1)).pipe(trackCheckpoint(store, { every: 1, everyMs: 0 })))).rejects.toMatchObject({
      code: 'CHECKPOINT_STORE_FAILED',
      cause: new Error('disk full'),
    });
  });

  it('with a Promise store, completes only after the final save is durable', async () => {
    const store = new MemoryCheckpointStore();
    let savedWhenCompleted: Checkpoint | undefined;
    const out = await lastValueFrom(
      of(tx(1), tx(2), tx(5)).pipe(trackCheckpoint(store, { every: 100, everyMs: 0 }), toArray()),
    ).then((v) => {
      savedWhenCompleted = store.history.at(-1);
      return v;
    });
    expect(out).toHaveLength(3);
    expect(savedWhenCompleted?.offset).toBe(5);
    expect(await firstValueFrom(of(await store.load()))).toMatchObject({ offset: 5 });
  });

  it('never reports an element as processed before its next() returned', async () => {
    const store = new MemoryCheckpointStore();
    const source = new Subject<ReturnType<typeof tx>>();
    const seenInsideNext: (number | undefined)[] = [];
    source.pipe(trackCheckpoint(store, { every: 1, everyMs: 0 })).subscribe(() => seenInsideNext.push(store.history.at(-1)?.offset));
    source.next(tx(1));
    await Promise.resolve();
    source.next(tx(2));
    await Promise.resolve();
    expect(seenInsideNext).toEqual([undefined, 1]);
    expect(store.history.map((c) => c.offset)).toEqual([1, 2]);
    source.complete();
  });
});
