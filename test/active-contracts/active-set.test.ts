import { describe, expect, it } from 'vitest';
import { ActiveSet } from '../../src/active-contracts/active-set.js';
import type { JsGetActiveContractsResponse, JsGetUpdatesResponse } from '../../src/schemas/index.js';

// ActiveSet on its own: hand-made entries and updates (ACS-delta shape), two synchronizers.

const syncA = 'sync-a::1220aa';
const syncB = 'sync-b::1220bb';

const created = (id: string, offset: number, extra: Record<string, unknown> = {}) => ({ contractId: id, offset, nodeId: 0, templateId: 'p:M:T', ...extra });

const active = (id: string, synchronizerId = syncA): JsGetActiveContractsResponse =>
  ({ workflowId: '', contractEntry: { JsActiveContract: { createdEvent: created(id, 1), synchronizerId, reassignmentCounter: 0 } } }) as unknown as JsGetActiveContractsResponse;
const incompleteAssigned = (id: string, target: string): JsGetActiveContractsResponse =>
  ({
    workflowId: '',
    contractEntry: { JsIncompleteAssigned: { assignedEvent: { source: syncA, target, reassignmentId: `r-${id}`, reassignmentCounter: 1, createdEvent: created(id, 2) } } },
  }) as unknown as JsGetActiveContractsResponse;
const incompleteUnassigned = (id: string): JsGetActiveContractsResponse =>
  ({
    workflowId: '',
    contractEntry: { JsIncompleteUnassigned: { createdEvent: created(id, 1), unassignedEvent: { contractId: id, source: syncA, target: syncB, offset: 3 } } },
  }) as unknown as JsGetActiveContractsResponse;
const entry = (contractEntry: unknown) => ({ workflowId: '', contractEntry }) as unknown as JsGetActiveContractsResponse;

type Ev = { kind: 'create' | 'archive' | 'consume' | 'use' | 'transient'; id: string };
const tx = (offset: number, events: readonly Ev[], synchronizerId = syncA): JsGetUpdatesResponse =>
  ({
    update: {
      Transaction: {
        value: {
          updateId: `u${offset}`,
          offset,
          synchronizerId,
          events: events.map((e, nodeId) => {
            switch (e.kind) {
              case 'create':
                return { CreatedEvent: created(e.id, offset, { nodeId }) };
              case 'transient':
                return { CreatedEvent: created(e.id, offset, { nodeId, acsDelta: false }) };
              case 'archive':
                return { ArchivedEvent: { contractId: e.id, offset, nodeId, templateId: 'p:M:T' } };
              case 'consume':
                return { ExercisedEvent: { contractId: e.id, offset, nodeId, templateId: 'p:M:T', consuming: true, acsDelta: true } };
              case 'use':
                return { ExercisedEvent: { contractId: e.id, offset, nodeId, templateId: 'p:M:T', consuming: false, acsDelta: false } };
            }
          }),
        },
      },
    },
  }) as unknown as JsGetUpdatesResponse;
const reassignment = (offset: number, events: readonly ({ assign: string; target: string } | { unassign: string; source: string })[]): JsGetUpdatesResponse =>
  ({
    update: {
      Reassignment: {
        value: {
          updateId: `r${offset}`,
          offset,
          events: events.map((e) =>
            'assign' in e
              ? { JsAssignmentEvent: { source: e.target === syncA ? syncB : syncA, target: e.target, reassignmentId: `r-${e.assign}`, reassignmentCounter: 1, createdEvent: created(e.assign, offset) } }
              : { JsUnassignedEvent: { value: { contractId: e.unassign, source: e.source, target: e.source === syncA ? syncB : syncA, offset, reassignmentCounter: 1 } } },
          ),
        },
      },
    },
  }) as unknown as JsGetUpdatesResponse;
const checkpoint = (offset: number) => ({ update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } } }) as unknown as JsGetUpdatesResponse;

const ids = (map: ReadonlyMap<string, unknown>) => [...map.keys()].sort();
const idsOf = (events: readonly { contractId: string }[] | undefined) => (events ?? []).map((e) => e.contractId).sort();

function loaded(...entries: JsGetActiveContractsResponse[]): ActiveSet {
  const set = new ActiveSet();
  for (const e of entries) set.addSnapshotEntry(e);
  set.snapshotLoaded();
  return set;
}

describe('ActiveSet', () => {
  it('loads a snapshot: active contracts and incomplete assignments count, incomplete unassignments, JsEmpty and unknown kinds do not', () => {
    const set = new ActiveSet();
    set.addSnapshotEntry(active('a'));
    set.addSnapshotEntry(incompleteAssigned('b', syncB));
    set.addSnapshotEntry(incompleteUnassigned('c'));
    set.addSnapshotEntry(entry({ JsEmpty: {} }));
    set.addSnapshotEntry(entry({ unknownVariant: 'JsFuture', payload: { contractId: 'x' } }));
    set.addSnapshotEntry(entry(null));
    expect(set.contracts.size).toBe(0); // nothing shows before the snapshot is loaded
    set.snapshotLoaded();
    expect(ids(set.contracts)).toEqual(['a', 'b']);
    expect(set.contracts.get('b')?.offset).toBe(2); // the assignment's created event
    expect(() => set.addSnapshotEntry(active('d'))).toThrow(/already loaded/);
  });

  it('creates add, archives and consuming ACS-delta exercises remove; transient creates, non-consuming exercises and checkpoints change nothing', () => {
    const set = loaded(active('a'), active('b'));
    const first = set.applyUpdate(tx(10, [{ kind: 'create', id: 'c' }, { kind: 'archive', id: 'a' }]));
    expect(idsOf(first?.added)).toEqual(['c']);
    expect(idsOf(first?.removed)).toEqual(['a']);
    expect(ids(set.contracts)).toEqual(['b', 'c']);
    expect(set.contracts.get('c')?.offset).toBe(10);

    const consumed = set.applyUpdate(tx(11, [{ kind: 'consume', id: 'b' }]));
    expect(idsOf(consumed?.removed)).toEqual(['b']);
    expect(ids(set.contracts)).toEqual(['c']);

    expect(set.applyUpdate(tx(12, [{ kind: 'use', id: 'c' }, { kind: 'transient', id: 't' }]))).toBeUndefined();
    expect(set.applyUpdate(checkpoint(13))).toBeUndefined();
    expect(set.applyUpdate(tx(14, []))).toBeUndefined();
    // created and archived in one update: no change at all
    expect(set.applyUpdate(tx(15, [{ kind: 'create', id: 'e' }, { kind: 'archive', id: 'e' }]))).toBeUndefined();
    // archiving a contract the set never held (another party's, or pruned away) is no change either
    expect(set.applyUpdate(tx(16, [{ kind: 'archive', id: 'zz' }]))).toBeUndefined();
    expect(ids(set.contracts)).toEqual(['c']);
  });

  it('applyUpdate without snapshotLoaded loads the snapshot first (an update ends the snapshot)', () => {
    const set = new ActiveSet();
    set.addSnapshotEntry(active('a'));
    expect(idsOf(set.applyUpdate(tx(5, [{ kind: 'create', id: 'b' }]))?.added)).toEqual(['b']);
    expect(ids(set.contracts)).toEqual(['a', 'b']);
  });

  it('a reassignment moves a contract: unassigned then assigned, each half its own update, in either order', () => {
    const set = loaded(active('a', syncA), active('b', syncA));
    // unassignment first: in flight, not active anywhere
    expect(idsOf(set.applyUpdate(reassignment(20, [{ unassign: 'a', source: syncA }]))?.removed)).toEqual(['a']);
    expect(ids(set.contracts)).toEqual(['b']);
    const assigned = set.applyUpdate(reassignment(21, [{ assign: 'a', target: syncB }]));
    expect(idsOf(assigned?.added)).toEqual(['a']);
    expect(set.contracts.get('a')?.offset).toBe(21); // the value is the latest activation's created event

    // assignment first (a participant that sees the target before the source): active on both for a while
    expect(set.applyUpdate(reassignment(22, [{ assign: 'b', target: syncB }]))).toBeUndefined(); // already active: no change of the set
    expect(set.contracts.get('b')?.offset).toBe(22); // but its value is the new activation
    expect(set.applyUpdate(reassignment(23, [{ unassign: 'b', source: syncA }]))).toBeUndefined(); // still active on B
    expect(ids(set.contracts)).toEqual(['a', 'b']);
    // archived on its new synchronizer: gone from every synchronizer
    expect(idsOf(set.applyUpdate(tx(24, [{ kind: 'archive', id: 'b' }], syncB))?.removed)).toEqual(['b']);
    expect(ids(set.contracts)).toEqual(['a']);
  });

  it('incomplete (un)assignments of the snapshot are completed by the updates after it', () => {
    const set = loaded(incompleteUnassigned('u'), incompleteAssigned('v', syncB));
    expect(ids(set.contracts)).toEqual(['v']);
    // the assignment of the unassigned one arrives: it becomes active
    expect(idsOf(set.applyUpdate(reassignment(30, [{ assign: 'u', target: syncB }]))?.added)).toEqual(['u']);
    // the unassignment behind the incomplete assignment arrives late: v stays active on its target
    expect(set.applyUpdate(reassignment(31, [{ unassign: 'v', source: syncA }]))).toBeUndefined();
    expect(ids(set.contracts)).toEqual(['u', 'v']);
    // an unassignment from the target it was assigned to takes it away
    expect(idsOf(set.applyUpdate(reassignment(32, [{ unassign: 'v', source: syncB }]))?.removed)).toEqual(['v']);
    expect(ids(set.contracts)).toEqual(['u']);
  });

  it('every emitted map is immutable and stays as it was; an update that changes nothing keeps the same map', () => {
    const set = loaded(active('a'));
    const v0 = set.contracts;
    set.applyUpdate(tx(40, [{ kind: 'create', id: 'b' }]));
    const v1 = set.contracts;
    set.applyUpdate(tx(41, [{ kind: 'archive', id: 'a' }, { kind: 'create', id: 'c' }]));
    const v2 = set.contracts;
    expect([ids(v0), ids(v1), ids(v2)]).toEqual([['a'], ['a', 'b'], ['b', 'c']]);
    expect([v0.size, v1.size, v2.size]).toEqual([1, 2, 2]);
    expect(v0.has('b')).toBe(false);
    expect(v1.get('a')?.contractId).toBe('a');
    expect(v2.get('a')).toBeUndefined();
    // the maps are read-only: no mutating methods to call
    const mutable = v2 as unknown as Partial<Map<string, unknown>>;
    expect(mutable.set).toBeUndefined();
    expect(mutable.delete).toBeUndefined();
    expect(mutable.clear).toBeUndefined();
    set.applyUpdate(tx(42, [{ kind: 'use', id: 'b' }]));
    expect(set.contracts).toBe(v2);
  });

  it('holds only the active set: a long history of creates and archives leaves nothing behind', () => {
    const set = loaded(...Array.from({ length: 10 }, (_, i) => active(`s${i}`)));
    const tracked = (s: ActiveSet) => (s as unknown as { where: Map<string, unknown> }).where.size;
    for (let i = 0; i < 2_000; i++) {
      set.applyUpdate(tx(100 + 2 * i, [{ kind: 'create', id: `h${i}` }]));
      set.applyUpdate(tx(101 + 2 * i, [{ kind: 'archive', id: `h${i}` }]));
      // reassigned back and forth: no trace of past synchronizers either
      set.applyUpdate(reassignment(100_000 + 2 * i, [{ unassign: 's0', source: i % 2 === 0 ? syncA : syncB }]));
      set.applyUpdate(reassignment(100_001 + 2 * i, [{ assign: 's0', target: i % 2 === 0 ? syncB : syncA }]));
    }
    expect(set.contracts.size).toBe(10);
    expect(tracked(set)).toBe(10); // the synchronizer index holds the active contracts only
    expect(ids(set.contracts)).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`).sort());
  });
});
