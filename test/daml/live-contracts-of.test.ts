import { describe, expect, it } from 'vitest';
import * as d from '../../src/daml/index.js';
import type { JsGetActiveContractsResponse, JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { fakeSnapshotSource } from '../support/fake-snapshot-source.js';
import { createTestScheduler } from '../support/test-scheduler.js';

/** liveContractsOf(source, { template: T, parties }): liveContracts of one template with typed, validated payloads. */
type Iou = { owner: d.Party; amount: d.Numeric; note: d.Optional<string> };
const Iou = d.template({
  packageId: 'ab'.repeat(32),
  packageName: 'model',
  moduleName: 'Iou',
  entityName: 'Iou',
  schema: d.record<Iou>({ owner: d.party, amount: d.numeric(10), note: d.optional(d.text) }),
  choices: { Archive: d.choice<d.Unit, d.Unit>({ name: 'Archive', consuming: true, templateId: '#model:Iou:Iou', argument: d.unit, result: d.unit }) },
  implements: [],
});
const sync = 'global::1220aa';
const createdEvent = (id: string, offset: number, createArgument: unknown) => ({
  contractId: id, offset, nodeId: 0, templateId: `${'ab'.repeat(32)}:Iou:Iou`, createArgument, witnessParties: ['Alice'], signatories: ['Alice'], createdAt: '2026-01-01T00:00:00Z', packageName: 'model', representativePackageId: 'ab'.repeat(32), acsDelta: true,
});
const active = (id: string, createArgument: unknown): JsGetActiveContractsResponse =>
  ({ workflowId: '', contractEntry: { JsActiveContract: { createdEvent: createdEvent(id, 1, createArgument), synchronizerId: sync, reassignmentCounter: 0 } } }) as unknown as JsGetActiveContractsResponse;
const tx = (offset: number, created: [string, unknown][], archived: string[]): JsGetUpdatesResponse =>
  ({
    update: {
      Transaction: {
        value: {
          updateId: `u${offset}`, offset, synchronizerId: sync, recordTime: '2026-01-01T00:00:00Z', effectiveAt: '2026-01-01T00:00:00Z',
          events: [
            ...created.map(([id, arg]) => ({ CreatedEvent: createdEvent(id, offset, arg) })),
            ...archived.map((id) => ({ ArchivedEvent: { contractId: id, offset, nodeId: 1, templateId: `${'ab'.repeat(32)}:Iou:Iou`, witnessParties: ['Alice'], packageName: 'model' } })),
          ],
        },
      },
    },
  }) as unknown as JsGetUpdatesResponse;

describe('liveContractsOf', () => {
  it('emits typed states and asks for exactly the template for the parties', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const source = fakeSnapshotSource(() => cold('-a|', { a: active('c1', { owner: 'Alice', amount: '1.0000000000' }) }), 40, [
        () => cold('-x|', { x: tx(41, [['c2', { owner: 'Alice', amount: '2.0000000000', note: 'n' }]], ['c1']) }),
      ]);
      const states: d.TypedLiveContracts<Iou>[] = [];
      d.liveContractsOf(source, { template: Iou, parties: ['Alice'], endInclusive: 41 }).subscribe((s) => states.push(s));
      flush();
      expect(states.map((s) => s.offset)).toEqual([40, 41]);
      expect(states[0]!.contracts.get('c1' as d.ContractId<Iou>)?.payload).toEqual({ owner: 'Alice', amount: '1.0000000000', note: null });
      expect([...states[1]!.contracts.values()].map((c) => [c.contractId, c.payload.amount])).toEqual([['c2', '2.0000000000']]);
      expect(states[1]!.removed.map((c) => c.contractId)).toEqual(['c1']);
      expect(JSON.stringify(source.snapshots[0]!.request)).toContain('"templateId":"#model:Iou:Iou"');
      expect(JSON.stringify(source.snapshots[0]!.request)).toContain('"Alice"');
    });
  });

  it('a payload that does not match the template errors with a DamlValueError', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const source = fakeSnapshotSource(() => cold('-a|', { a: active('c1', { owner: 'Alice', amount: 1 }) }), 40, [() => cold('|')]);
      let error: unknown;
      d.liveContractsOf(source, { template: Iou, parties: ['Alice'], endInclusive: 40 }).subscribe({ error: (e: unknown) => (error = e) });
      flush();
      expect(error).toBeInstanceOf(d.DamlValueError);
      expect((error as d.DamlValueError).path).toBe('amount');
    });
  });
});
