import { Subject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { planSnapshotStart } from '../../src/cli/ingest/plan-snapshot-start.js';
import { pullChunks } from '../../src/cli/ingest/pull-chunks.js';
import { readIngestOptions } from '../../src/cli/ingest/read-ingest-options.js';
import { UsageError } from '../../src/cli/options/usage-error.js';

// The decisions of an ingest that starts from the active-contract snapshot; the end-to-end runs (server and
// embedded store, kills included) are in ingest-e2e.test.ts and ingest-embedded.test.ts.

const bounds = (ledgerEnd: number, prunedUpTo = 0) => ({ ledgerEnd: async () => ledgerEnd, prunedUpTo: async () => prunedUpTo, reach: async () => undefined });

describe('planSnapshotStart', () => {
  it('--from acs: at --at, else the ledger end; an --at after the ledger end or beyond --to is bad usage', async () => {
    const range = { beginExclusive: 0, endInclusive: undefined };
    expect(await planSnapshotStart({ fromAcs: true }, range, bounds(90))).toEqual({ offset: 90, why: 'asked' });
    expect(await planSnapshotStart({ fromAcs: true, at: 40 }, range, bounds(90))).toEqual({ offset: 40, why: 'asked' });
    expect(await planSnapshotStart({ fromAcs: true, at: 0 }, range, bounds(90))).toEqual({ offset: 0, why: 'asked' });
    await expect(planSnapshotStart({ fromAcs: true, at: 91 }, range, bounds(90))).rejects.toThrow(/--at 91 is after the ledger end \(90\)/);
    await expect(planSnapshotStart({ fromAcs: true, at: 50 }, { beginExclusive: 0, endInclusive: 45 }, bounds(90))).rejects.toBeInstanceOf(UsageError);
    // an explicit pruned --at is the participant's to refuse (exit 3 with the earliest offset)
    expect(await planSnapshotStart({ fromAcs: true, at: 5 }, { beginExclusive: 30, endInclusive: undefined }, bounds(90, 30))).toEqual({ offset: 5, why: 'asked' });
  });

  it('--from begin on a pruned participant: at the pruning offset; unpruned, an offset or end: no snapshot', async () => {
    const pruned = { beginExclusive: 30, endInclusive: undefined };
    expect(await planSnapshotStart({}, pruned, bounds(90, 30))).toEqual({ offset: 30, why: 'pruned' });
    expect(await planSnapshotStart({ from: 'begin' }, pruned, bounds(90, 30))).toEqual({ offset: 30, why: 'pruned' });
    expect(await planSnapshotStart({}, { beginExclusive: 0, endInclusive: undefined }, bounds(90))).toBeUndefined();
    expect(await planSnapshotStart({ from: 40 }, { beginExclusive: 40, endInclusive: undefined }, bounds(90, 30))).toBeUndefined();
    expect(await planSnapshotStart({ from: 'end' }, { beginExclusive: 'ledger-end', endInclusive: undefined }, bounds(90, 30))).toBeUndefined();
    // --to at or below the pruning offset: resolveReadRange keeps the range at 0 for the participant to refuse
    expect(await planSnapshotStart({}, { beginExclusive: 0, endInclusive: 20 }, bounds(90, 30))).toBeUndefined();
  });

  it('reads --from acs and --at from the flags; --at alone is bad usage', () => {
    expect(readIngestOptions({ sandbox: true, from: 'acs', at: '12' })).toMatchObject({ fromAcs: true, at: 12, from: undefined });
    expect(readIngestOptions({ sandbox: true, from: 'ACS' })).toMatchObject({ fromAcs: true, at: undefined });
    expect(readIngestOptions({ sandbox: true, from: 'begin' })).toMatchObject({ fromAcs: false, from: 'begin' });
    expect(() => readIngestOptions({ sandbox: true, at: '12' })).toThrow(/--from acs/);
    expect(() => readIngestOptions({ sandbox: true, from: 'acs', at: '-1' })).toThrow(UsageError);
  });
});

describe('pullChunks', () => {
  it('yields chunks as the consumer pulls, pausing the read while two chunks wait and resuming below one', async () => {
    const source = new Subject<number>();
    const pausedSeen: boolean[] = [];
    const chunks = pullChunks((paused: Observable<boolean>) => {
      paused.subscribe((p) => pausedSeen.push(p));
      return source;
    }, 3);
    const iterator = chunks[Symbol.asyncIterator]();
    const first = iterator.next(); // subscribes
    for (let i = 1; i <= 7; i++) source.next(i);
    expect(await first).toEqual({ done: false, value: [1, 2, 3] });
    expect(pausedSeen).toEqual([false, true]); // six waited at once: paused
    expect(await iterator.next()).toEqual({ done: false, value: [4, 5, 6] });
    expect(pausedSeen).toEqual([false, true, false]); // one left: resumed
    const last = iterator.next();
    source.complete();
    expect(await last).toEqual({ done: false, value: [7] });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('throws the read error and the abort reason, and unsubscribes when the consumer leaves', async () => {
    const failing = new Subject<number>();
    const iterator = pullChunks(() => failing, 2)[Symbol.asyncIterator]();
    const pending = iterator.next();
    failing.next(1);
    failing.error(new Error('socket closed'));
    await expect(pending).rejects.toThrow('socket closed');

    const controller = new AbortController();
    const stalled = new Subject<number>();
    const aborted = pullChunks(() => stalled, 2, controller.signal)[Symbol.asyncIterator]();
    const waiting = aborted.next();
    controller.abort(new Error('stop requested'));
    await expect(waiting).rejects.toThrow('stop requested');
    expect(stalled.observed).toBe(false);

    const left = new Subject<number>();
    const leaving = pullChunks(() => left, 1)[Symbol.asyncIterator]();
    const got = leaving.next();
    left.next(1);
    expect(await got).toEqual({ done: false, value: [1] });
    await leaving.return?.();
    expect(left.observed).toBe(false);
    expect(() => pullChunks(() => left, 0)).toThrow(RangeError);
  });
});
