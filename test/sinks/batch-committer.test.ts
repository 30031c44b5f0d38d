import { from, lastValueFrom } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { BatchCommitter, type BatchCommit } from '../../src/sinks/batch-committer.js';
import type { SinkCommit, SinkPosition } from '../../src/sinks/ledger-sink.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { updateOffset } from '../../src/updates/update-offset.js';

const tx = (offset: number, synchronizerId = 's', recordTime = `t${offset}`) =>
  ({ update: { Transaction: { value: { updateId: `u${offset}`, offset, events: [], synchronizerId, recordTime } } } }) as unknown as JsGetUpdatesResponse;
const wait = (input: ReturnType<BatchCommitter['add']>) => lastValueFrom(from(input), { defaultValue: undefined });
const tick = () => new Promise((r) => setImmediate(r));

/**
 * A sink whose commits complete only when the test releases them; records the calls in order. With `mode` `add` it
 * takes each element with `add` (`LedgerSink.add`) and refuses `write`.
 */
function committer(size: number, maxDelayMs: number, start?: SinkPosition, mode: 'write' | 'add' = 'write') {
  const calls: string[] = [];
  const committed: number[][] = [];
  const positions: SinkPosition[] = [];
  const releases: (() => void)[] = [];
  const failures: unknown[] = [];
  const reported: BatchCommit[] = [];
  let staged: number[] = [];
  let fail: Error | undefined;
  let refuse: Error | undefined;
  const commit = (position: SinkPosition) => {
    calls.push(`commit ${position.offset}`);
    const unit = staged;
    staged = [];
    return new Promise<SinkCommit>((resolve, reject) =>
      releases.push(() => {
        if (fail) reject(fail);
        else {
          committed.push(unit);
          positions.push(position);
          resolve({ applied: true, updates: unit.length, bytes: 0 });
        }
      }),
    );
  };
  const sink =
    mode === 'write'
      ? {
          write: (elements: readonly JsGetUpdatesResponse[]) => {
            calls.push(`write ${elements.map(updateOffset).join(',')}`);
            staged.push(...elements.map((e) => updateOffset(e) as number));
            return Promise.resolve();
          },
          commit,
        }
      : {
          write: () => Promise.reject(new Error('write is not called on a sink with add')),
          add: (element: JsGetUpdatesResponse) => {
            if (refuse) throw refuse;
            calls.push(`add ${updateOffset(element)}`);
            staged.push(updateOffset(element) as number);
          },
          commit,
        };
  const c = new BatchCommitter({ sink, size, maxDelayMs, start, onCommit: (r) => reported.push(r), onFailure: (e) => failures.push(e) });
  return { c, calls, committed, positions, releases, failures, reported, failNext: (e: Error) => (fail = e), refuseNext: (e: Error) => (refuse = e) };
}

describe('BatchCommitter', () => {
  it('writes then commits full batches in order; the reader waits only while a previous batch is still committing', async () => {
    const { c, calls, committed, releases, reported } = committer(2, 10_000);
    await wait(c.add(tx(1)));
    await wait(c.add(tx(2))); // batch 1 handed over: nothing before it, so no wait
    await tick();
    expect(releases).toHaveLength(1); // batch 1 committing
    await wait(c.add(tx(3)));
    let waited = false;
    const pending = wait(c.add(tx(4))).then(() => (waited = true)); // batch 2 full: written at once, waits for batch 1's commit
    await tick();
    expect(calls).toEqual(['write 1,2', 'commit 2', 'write 3,4', 'commit 4']);
    expect(waited).toBe(false);
    releases.shift()?.();
    await pending;
    expect(committed).toEqual([[1, 2]]);
    releases.shift()?.();
    await c.flush();
    expect(committed).toEqual([[1, 2], [3, 4]]);
    expect(reported.map((r) => [r.firstOffset, r.position.offset, r.elements, r.updates])).toEqual([
      [1, 2, 2, 2],
      [3, 4, 2, 2],
    ]);
  });

  it('hands over a partial batch maxDelayMs after its first element', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let handedOver: ReturnType<typeof committer>;
    try {
      handedOver = committer(100, 30);
      await wait(handedOver.c.add(tx(1)));
      await wait(handedOver.c.add(tx(2)));
      vi.advanceTimersByTime(29);
      await tick();
      expect(handedOver.releases).toHaveLength(0);
      vi.advanceTimersByTime(1);
      await tick();
    } finally {
      vi.useRealTimers();
    }
    const { c, committed, releases } = handedOver;
    expect(releases).toHaveLength(1);
    releases.shift()?.();
    await tick();
    expect(committed).toEqual([[1, 2]]);
    await wait(c.add(tx(3)));
    const flushed = c.flush();
    await tick();
    releases.shift()?.();
    await flushed;
    expect(committed).toEqual([[1, 2], [3]]);
  });

  it('commits each batch at the position of its last element, with the synchronizer times merged from the start position on', async () => {
    const start = { offset: 0, synchronizerTimes: [{ synchronizerId: 'old', recordTime: 'T0' }] };
    const { c, positions, releases } = committer(2, 10_000, start);
    const checkpoint = { update: { OffsetCheckpoint: { value: { offset: 5, synchronizerTimes: [{ synchronizerId: 'b', recordTime: 'T5' }, { bad: 1 }] } } } } as unknown as JsGetUpdatesResponse;
    await wait(c.add(tx(1, 'a')));
    await wait(c.add({ update: {} } as unknown as JsGetUpdatesResponse)); // no offset: ignored
    await wait(c.add(tx(3, 'a')));
    await wait(c.add(checkpoint));
    const flushed = c.flush();
    for (let i = 0; i < 2; i++) {
      await tick();
      releases.shift()?.();
    }
    await flushed;
    expect(positions).toEqual([
      { offset: 3, synchronizerTimes: [{ synchronizerId: 'old', recordTime: 'T0' }, { synchronizerId: 'a', recordTime: 't3' }] },
      { offset: 5, synchronizerTimes: [{ synchronizerId: 'old', recordTime: 'T0' }, { synchronizerId: 'a', recordTime: 't3' }, { synchronizerId: 'b', recordTime: 'T5' }] },
    ]);
    expect(() => c.add(tx(5))).toThrow(RangeError);
  });

  it.each([
    ['write', ['write 1', 'commit 1', 'write 2', 'commit 2']],
    ['add', ['add 1', 'commit 1', 'add 2', 'commit 2']],
  ] as const)('stops at the first failed commit (a sink with %s): onFailure once, add throws, flush rejects, nothing later is written', async (mode, expected) => {
    const { c, calls, committed, releases, failures, failNext } = committer(1, 10_000, undefined, mode);
    failNext(new Error('db down'));
    await wait(c.add(tx(1)));
    await tick();
    releases.shift()?.();
    await expect(wait(c.add(tx(2)))).rejects.toThrow('db down');
    expect(failures).toHaveLength(1);
    expect(() => c.add(tx(3))).toThrow('db down');
    await expect(c.flush()).rejects.toThrow('db down');
    expect(committed).toEqual([]);
    expect(calls).toEqual(expected);
  });

  describe('over a sink that takes each element as it comes (LedgerSink.add)', () => {
    const adding = (size: number, maxDelayMs: number) => committer(size, maxDelayMs, undefined, 'add');

    it('hands every element over as it arrives and closes the batch with commit before the next element; the waits are the same', async () => {
      const { c, calls, committed, releases, reported } = adding(2, 10_000);
      await wait(c.add(tx(1)));
      expect(calls).toEqual(['add 1']); // not kept until the batch is full
      await wait(c.add(tx(2))); // batch 1 closed at once: nothing before it, so no wait
      expect(calls).toEqual(['add 1', 'add 2', 'commit 2']);
      await wait(c.add(tx(3)));
      let waited = false;
      const pending = wait(c.add(tx(4))).then(() => (waited = true)); // batch 2 closed, waits for batch 1's commit
      await tick();
      expect(calls).toEqual(['add 1', 'add 2', 'commit 2', 'add 3', 'add 4', 'commit 4']);
      expect(waited).toBe(false);
      releases.shift()?.();
      await pending;
      expect(committed).toEqual([[1, 2]]);
      await wait(c.add(tx(5)));
      const flushed = c.flush();
      releases.shift()?.();
      await tick();
      releases.shift()?.();
      await flushed;
      expect(committed).toEqual([[1, 2], [3, 4], [5]]);
      expect(reported.map((r) => [r.firstOffset, r.position.offset, r.elements])).toEqual([
        [1, 2, 2],
        [3, 4, 2],
        [5, 5, 1],
      ]);
    });

    it('hands over a partial batch maxDelayMs after its first element', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let handedOver: ReturnType<typeof adding>;
      try {
        handedOver = adding(100, 30);
        await wait(handedOver.c.add(tx(1)));
        await wait(handedOver.c.add(tx(2)));
        vi.advanceTimersByTime(29);
        expect(handedOver.calls).toEqual(['add 1', 'add 2']);
        vi.advanceTimersByTime(1);
      } finally {
        vi.useRealTimers();
      }
      const { c, calls, committed, releases } = handedOver;
      expect(calls).toEqual(['add 1', 'add 2', 'commit 2']);
      releases.shift()?.();
      await c.flush();
      expect(committed).toEqual([[1, 2]]);
    });

    it("fails at a throw of the sink's add: onFailure once, add throws, flush rejects, the open batch is never committed", async () => {
      const { c, calls, failures, refuseNext } = adding(10, 10_000);
      await wait(c.add(tx(1)));
      refuseNext(new Error('cannot encode'));
      expect(() => c.add(tx(2))).toThrow('cannot encode');
      expect(failures).toHaveLength(1);
      expect(() => c.add(tx(3))).toThrow('cannot encode');
      await expect(c.flush()).rejects.toThrow('cannot encode');
      expect(calls).toEqual(['add 1']);
    });
  });
});
