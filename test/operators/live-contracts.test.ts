import { describe, expect, it } from 'vitest';
import { liveContracts, type LiveContracts } from '../../src/operators/index.js';
import { activeEntry, fakeSnapshotSource, txWith } from '../support/fake-snapshot-source.js';
import { cp } from '../support/fake-updates-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

const eventFormat = { filtersByParty: { 'Alice::1220aa': { cumulative: [] } }, verbose: false };
const c1 = activeEntry('c1');
const c2 = activeEntry('c2');

describe('liveContracts', () => {
  it('emits the set once the snapshot is loaded, then after each update that changes it; earlier maps stay as they were', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const source = fakeSnapshotSource(() => cold('-a-b|', { a: c1, b: c2 }), 40, [() => cold('-x-k-y-z|', { x: txWith(41, ['c3']), k: cp(42), y: txWith(43, []), z: txWith(45, ['c4'], ['c1']) })]);
      const states: { state: LiveContracts }[] = [];
      let done = -1;
      liveContracts(source, { eventFormat, endInclusive: 45 }).subscribe({ next: (state) => states.push({ state }), complete: () => (done = 1) });
      flush();
      expect(done).toBe(1);
      const ids = (s: LiveContracts | undefined) => [...(s?.contracts.keys() ?? [])].sort();
      const idsOf = (events: readonly { contractId: string }[] | undefined) => (events ?? []).map((e) => e.contractId).sort();
      const [first, second, third] = states.map((s) => s.state);
      expect(states.map((s) => s.state.offset)).toEqual([40, 41, 45]);
      expect(ids(first)).toEqual(['c1', 'c2']);
      expect(idsOf(first?.added)).toEqual(['c1', 'c2']);
      expect(ids(second)).toEqual(['c1', 'c2', 'c3']);
      expect(idsOf(second?.added)).toEqual(['c3']);
      expect(ids(third)).toEqual(['c2', 'c3', 'c4']);
      expect(idsOf(third?.added)).toEqual(['c4']);
      expect(idsOf(third?.removed)).toEqual(['c1']);
      expect(third?.contracts.get('c4')?.contractId).toBe('c4');
      expect(ids(first)).toEqual(['c1', 'c2']); // immutable: still the snapshot's set
      expect(ids(second)).toEqual(['c1', 'c2', 'c3']);
    });
  });

  it('an empty snapshot is still a first state', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const source = fakeSnapshotSource(() => cold('|'), 0, [() => cold('-x|', { x: cp(1) })]);
      const states: LiveContracts[] = [];
      liveContracts(source, { eventFormat, endInclusive: 1 }).subscribe((s) => states.push(s));
      flush();
      expect(states.map((s) => [s.offset, s.contracts.size, s.added.length, s.removed.length])).toEqual([[0, 0, 0, 0]]);
    });
  });
});
