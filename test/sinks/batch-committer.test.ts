import { from, lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BatchCommitter } from '../../src/sinks/batch-committer.js';
import type { IngestBatch } from '../../src/sinks/postgres/ingest-batch.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';

const tx = (offset: number) =>
  ({ update: { Transaction: { value: { updateId: `u${offset}`, offset, events: [], synchronizerId: 's', recordTime: 't' } } } }) as unknown as JsGetUpdatesResponse;
const wait = (input: ReturnType<BatchCommitter['add']>) => lastValueFrom(from(input), { defaultValue: undefined });

function committer(size: number, maxDelayMs: number) {
  const committed: number[][] = [];
  const releases: (() => void)[] = [];
  const failures: unknown[] = [];
  let fail: Error | undefined;
  const c = new BatchCommitter({
    size,
    maxDelayMs,
    commit: (batch: IngestBatch) =>
      new Promise<void>((resolve, reject) =>
        releases.push(() => {
          if (fail) reject(fail);
          else {
            committed.push(batch.updates.map((u) => u.offset));
            resolve();
          }
        }),
      ),
    onFailure: (e) => failures.push(e),
  });
  return { c, committed, releases, failures, failNext: (e: Error) => (fail = e) };
}

describe('BatchCommitter', () => {
  it('commits full batches in order; the reader waits only while a previous batch is still committing', async () => {
    const { c, committed, releases } = committer(2, 10_000);
    await wait(c.add(tx(1)));
    await wait(c.add(tx(2))); // batch 1 queued: nothing before it, so no wait
    await new Promise((r) => setImmediate(r));
    expect(releases).toHaveLength(1); // batch 1 committing
    await wait(c.add(tx(3)));
    let waited = false;
    const pending = wait(c.add(tx(4))).then(() => (waited = true)); // batch 2 full: waits for batch 1
    await new Promise((r) => setImmediate(r));
    expect(waited).toBe(false);
    releases.shift()?.();
    await pending;
    expect(committed).toEqual([[1, 2]]);
    await new Promise((r) => setImmediate(r));
    releases.shift()?.();
    await c.flush();
    expect(committed).toEqual([[1, 2], [3, 4]]);
  });

  it('commits a partial batch maxDelayMs after its first element', async () => {
    const { c, committed, releases } = committer(100, 30);
    await wait(c.add(tx(1)));
    await wait(c.add(tx(2)));
    await new Promise((r) => setTimeout(r, 60));
    expect(releases).toHaveLength(1);
    releases.shift()?.();
    await new Promise((r) => setImmediate(r));
    expect(committed).toEqual([[1, 2]]);
    await wait(c.add(tx(3)));
    const flushed = c.flush();
    await new Promise((r) => setImmediate(r));
    releases.shift()?.();
    await flushed;
    expect(committed).toEqual([[1, 2], [3]]);
  });

  it('stops at the first failed commit: onFailure once, add throws, flush rejects, nothing later is committed', async () => {
    const { c, committed, releases, failures, failNext } = committer(1, 10_000);
    failNext(new Error('db down'));
    await wait(c.add(tx(1)));
    await new Promise((r) => setImmediate(r));
    releases.shift()?.();
    await expect(wait(c.add(tx(2)))).rejects.toThrow('db down');
    expect(failures).toHaveLength(1);
    expect(() => c.add(tx(3))).toThrow('db down');
    await expect(c.flush()).rejects.toThrow('db down');
    expect(committed).toEqual([]);
  });
});
