import { describe, expect, it } from 'vitest';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { mergeSynchronizerTimes, synchronizerTimesOf } from '../../src/updates/index.js';
import { cp, tx } from '../support/fake-updates-source.js';

const a = { synchronizerId: 'a::1', recordTime: '2026-01-01T00:00:01Z' };
const b = { synchronizerId: 'b::1', recordTime: '2026-01-01T00:00:02Z' };

describe('synchronizerTimesOf', () => {
  it.each([
    ['a checkpoint: its list', cp(3, [a, b]), [a, b]],
    ['a checkpoint without a list', { update: { OffsetCheckpoint: { value: { offset: 3, synchronizerTimes: null } } } }, []],
    ['a transaction: its own synchronizer and record time', tx(4, a.synchronizerId, a.recordTime), [a]],
    ['a reassignment', { update: { Reassignment: { value: { offset: 5, synchronizerId: 'b::1', recordTime: b.recordTime } } } }, [b]],
    ['a topology transaction', { update: { TopologyTransaction: { value: { offset: 6, synchronizerId: 'a::1', recordTime: a.recordTime } } } }, [a]],
    ['a transaction without a record time', { update: { Transaction: { value: { offset: 7, synchronizerId: 'a::1' } } } }, []],
    ['an unknown variant', { update: { unknownVariant: 'Future', payload: { value: { synchronizerId: 'a::1', recordTime: a.recordTime } } } }, []],
  ])('%s', (_name, element, expected) => {
    expect(synchronizerTimesOf(element as unknown as JsGetUpdatesResponse)).toEqual(expected);
  });
});

describe('mergeSynchronizerTimes', () => {
  it('replaces the synchronizers the next list names, keeps the others, appends new ones, and modifies neither input', () => {
    const a2 = { ...a, recordTime: '2026-01-01T00:00:09Z' };
    const previous = [a, b];
    const next = [a2, { synchronizerId: 'c::1', recordTime: a.recordTime }];
    expect(mergeSynchronizerTimes(previous, next)).toEqual([a2, b, next[1]]);
    expect(previous).toEqual([a, b]);
    expect(mergeSynchronizerTimes([], [])).toEqual([]);
  });
});
