import { describe, expect, it } from 'vitest';
import { IngestBatch } from '../../src/sinks/postgres/ingest-batch.js';
import { mapUpdateRows } from '../../src/sinks/postgres/map-update-rows.js';
import { pgArrayLiteral } from '../../src/sinks/postgres/pg-array-literal.js';
import { activeRow } from '../../src/sinks/postgres/active-row.js';
import { createdRow } from '../../src/sinks/postgres/created-row.js';
import { copyRows } from '../../src/sinks/postgres/write/copy-rows.js';
import { CopyBinary } from '../../src/sinks/postgres/write/copy-binary.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { decodeUpdateElement } from '../../src/updates/decode-update-element.js';

const el = (raw: unknown): JsGetUpdatesResponse => decodeUpdateElement(raw, 0, { validate: false });
const sync = 'global::1220aa';
const created = (offset: number, nodeId: number, contractId: string, acsDelta = true) => ({
  CreatedEvent: {
    offset,
    nodeId,
    contractId,
    templateId: 'pkg1:Iou:Iou',
    contractKey: null,
    createArgument: { issuer: 'Alice::1', owner: 'Bob::1', amount: '10.0' },
    createdEventBlob: '',
    interfaceViews: [],
    witnessParties: ['Alice::1'],
    signatories: ['Alice::1'],
    observers: ['Bob::1'],
    createdAt: '2026-01-01T00:00:00Z',
    packageName: 'demo',
    representativePackageId: 'pkg1',
    acsDelta,
  },
});
const transaction = (offset: number, events: unknown[]) => ({
  update: {
    Transaction: {
      value: {
        updateId: `upd-${offset}`,
        commandId: `cmd-${offset}`,
        workflowId: '',
        effectiveAt: '2026-01-01T00:00:00Z',
        events,
        offset,
        synchronizerId: sync,
        traceContext: null,
        recordTime: '2026-01-01T00:00:01Z',
      },
    },
  },
});

describe('row mapping', () => {
  it('maps an ACS-delta transaction: created and archived events, ACS changes', () => {
    const raw = transaction(7, [
      { ArchivedEvent: { offset: 7, nodeId: 0, contractId: 'c-old', templateId: 'pkg1:Iou:Iou', witnessParties: ['Alice::1'], packageName: 'demo' } },
      created(7, 1, 'c-new'),
    ]);
    const rows = mapUpdateRows(el(raw));
    expect(rows.offset).toBe(7);
    expect(rows.update).toEqual({
      offset: 7,
      updateId: 'upd-7',
      kind: 'transaction',
      recordTime: '2026-01-01T00:00:01Z',
      synchronizerId: sync,
      commandId: 'cmd-7',
      workflowId: '',
      effectiveAt: '2026-01-01T00:00:00Z',
      elementJson: JSON.stringify(raw),
    });
    expect(rows.archived).toEqual([{ offset: 7, nodeId: 0, contractId: 'c-old', templateId: 'pkg1:Iou:Iou', packageName: 'demo', witnessParties: ['Alice::1'] }]);
    expect(rows.created).toEqual([
      {
        offset: 7,
        nodeId: 1,
        contractId: 'c-new',
        templateId: 'pkg1:Iou:Iou',
        packageName: 'demo',
        createArgumentJson: '{"issuer":"Alice::1","owner":"Bob::1","amount":"10.0"}',
        contractKeyJson: null,
        signatories: ['Alice::1'],
        observers: ['Bob::1'],
        witnessParties: ['Alice::1'],
        createdAt: '2026-01-01T00:00:00Z',
        acsDelta: true,
        interfaceViews: [],
      },
    ]);
    expect(rows.views).toEqual([]);
    expect(rows.exercised).toEqual([]);
    expect(rows.acs.map((c) => (c.type === 'add' ? `+${c.row.contractId}@${c.row.synchronizerId}` : `-${c.contractId}`))).toEqual(['-c-old', `+c-new@${sync}`]);
  });

  it('keeps the interface views the participant computed (viewStatus OK, a viewValue), of creates and assignments', () => {
    const withViews = (offset: number, contractId: string, views: unknown[]) => {
      const c = created(offset, 0, contractId);
      return { CreatedEvent: { ...c.CreatedEvent, interfaceViews: views } };
    };
    const ok = (id: string, owner: string) => ({ interfaceId: id, viewStatus: { code: 0, message: '', details: [] }, viewValue: { owner } });
    const failed = { interfaceId: 'p:M:Failed', viewStatus: { code: 9, message: 'view failed', details: [] }, viewValue: null };
    const rows = mapUpdateRows(el(transaction(7, [withViews(7, 'c1', [ok('p:M:I', 'Bob::1'), failed, ok('p:M:J', 'Carol::1')])])));
    expect(rows.views).toEqual([
      { offset: 7, contractId: 'c1', interfaceId: 'p:M:I', viewValueJson: '{"owner":"Bob::1"}' },
      { offset: 7, contractId: 'c1', interfaceId: 'p:M:J', viewValueJson: '{"owner":"Carol::1"}' },
    ]);
    expect(rows.created[0]?.interfaceViews).toEqual(rows.views);
    const assigned = mapUpdateRows(
      el({
        update: {
          Reassignment: {
            value: {
              updateId: 'r', commandId: '', workflowId: '', offset: 8, recordTime: '2026-01-01T00:00:01Z', synchronizerId: sync, traceContext: null,
              events: [{ JsAssignmentEvent: { source: 's', target: sync, reassignmentId: 'x', submitter: 'Alice::1', reassignmentCounter: 1, createdEvent: withViews(8, 'c2', [ok('p:M:I', 'Dan::1')]).CreatedEvent } }],
            },
          },
        },
      }),
    );
    expect(assigned.views).toEqual([{ offset: 8, contractId: 'c2', interfaceId: 'p:M:I', viewValueJson: '{"owner":"Dan::1"}' }]);
  });

  it('maps a ledger-effects transaction: exercised events; only ACS-delta events change the ACS', () => {
    const exercised = (nodeId: number, contractId: string, consuming: boolean, acsDelta: boolean) => ({
      ExercisedEvent: {
        offset: 9,
        nodeId,
        contractId,
        templateId: 'pkg1:Iou:Iou',
        interfaceId: null,
        choice: consuming ? 'Transfer' : 'Iou_Observe',
        choiceArgument: { newOwner: 'Carol::1' },
        actingParties: ['Alice::1'],
        consuming,
        witnessParties: ['Alice::1'],
        lastDescendantNodeId: nodeId + 1,
        exerciseResult: 'c-succ',
        packageName: 'demo',
        implementedInterfaces: [],
        acsDelta,
      },
    });
    const rows = mapUpdateRows(
      el(transaction(9, [exercised(0, 'c-1', true, true), created(9, 1, 'c-succ'), exercised(2, 'c-2', false, false), created(9, 3, 'c-tmp', false), exercised(4, 'c-tmp', true, false)])),
    );
    expect(rows.exercised.map((e) => [e.nodeId, e.choice, e.consuming, e.acsDelta, e.choiceArgumentJson, e.exerciseResultJson])).toEqual([
      [0, 'Transfer', true, true, '{"newOwner":"Carol::1"}', '"c-succ"'],
      [2, 'Iou_Observe', false, false, '{"newOwner":"Carol::1"}', '"c-succ"'],
      [4, 'Transfer', true, false, '{"newOwner":"Carol::1"}', '"c-succ"'],
    ]);
    expect(rows.created.map((c) => [c.contractId, c.acsDelta])).toEqual([
      ['c-succ', true],
      ['c-tmp', false],
    ]);
    expect(rows.acs.map((c) => (c.type === 'add' ? `+${c.row.contractId}` : `-${c.contractId}`))).toEqual(['-c-1', '+c-succ']);
  });

  it('maps a reassignment: unassignment removes, assignment adds on the target', () => {
    const rows = mapUpdateRows(
      el({
        update: {
          Reassignment: {
            value: {
              updateId: 'r-1',
              commandId: 'cmd',
              workflowId: '',
              offset: 11,
              recordTime: '2026-01-01T00:00:02Z',
              synchronizerId: 'sync-b',
              events: [
                {
                  JsUnassignedEvent: {
                    value: {
                      reassignmentId: 'ra',
                      contractId: 'c-1',
                      templateId: 'pkg1:Iou:Iou',
                      source: 'sync-a',
                      target: 'sync-b',
                      submitter: 'Alice::1',
                      reassignmentCounter: 1,
                      witnessParties: ['Alice::1'],
                      packageName: 'demo',
                      offset: 11,
                      nodeId: 0,
                    },
                  },
                },
                { JsAssignmentEvent: { source: 'sync-a', target: 'sync-b', reassignmentId: 'rb', submitter: 'Alice::1', reassignmentCounter: 2, createdEvent: created(11, 1, 'c-2').CreatedEvent } },
              ],
            },
          },
        },
      }),
    );
    expect(rows.update?.kind).toBe('reassignment');
    expect(rows.reassignments.map((r) => [r.kind, r.contractId, r.source, r.target, r.reassignmentCounter, r.nodeId])).toEqual([
      ['unassign', 'c-1', 'sync-a', 'sync-b', 1, 0],
      ['assign', 'c-2', 'sync-a', 'sync-b', 2, 1],
    ]);
    expect(rows.acs).toEqual([
      { type: 'remove', contractId: 'c-1' },
      expect.objectContaining({ type: 'add', replaces: true, row: expect.objectContaining({ contractId: 'c-2', synchronizerId: 'sync-b', reassignmentCounter: 2 }) }),
    ]);
  });

  it('maps a topology transaction, a checkpoint and an unknown update kind', () => {
    const topo = mapUpdateRows(
      el({
        update: {
          TopologyTransaction: {
            value: {
              updateId: 't-1',
              offset: 3,
              synchronizerId: sync,
              recordTime: '2026-01-01T00:00:00Z',
              events: [{ event: { ParticipantAuthorizationAdded: { value: { partyId: 'Alice::1', participantId: 'p1', participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' } } } }],
            },
          },
        },
      }),
    );
    expect(topo.update).toMatchObject({ offset: 3, kind: 'topology_transaction', updateId: 't-1', commandId: null });
    expect(topo.created.length + topo.archived.length + topo.acs.length).toBe(0);

    const checkpoint = mapUpdateRows(el({ update: { OffsetCheckpoint: { value: { offset: 20, synchronizerTimes: [{ synchronizerId: sync, recordTime: 'T' }] } } } }));
    expect(checkpoint).toMatchObject({ offset: 20, update: undefined, created: [], acs: [] });

    const unknownRaw = { update: { FutureUpdate: { value: { offset: 30, updateId: 'f-1' } } } };
    const unknown = mapUpdateRows(el(unknownRaw));
    expect(unknown.update).toMatchObject({ offset: 30, kind: 'unknown', updateId: 'f-1', elementJson: JSON.stringify(unknownRaw) });
  });

  it('nets the ACS changes of a batch per contract', () => {
    const batch = new IngestBatch('s');
    batch.add(el(transaction(1, [created(1, 0, 'a'), created(1, 1, 'b')])));
    batch.add(el(transaction(2, [{ ArchivedEvent: { offset: 2, nodeId: 0, contractId: 'a', templateId: 't', witnessParties: [], packageName: 'demo' } }])));
    batch.add(el(transaction(3, [{ ArchivedEvent: { offset: 3, nodeId: 0, contractId: 'old', templateId: 't', witnessParties: [], packageName: 'demo' } }])));
    batch.add(el({ update: { OffsetCheckpoint: { value: { offset: 4, synchronizerTimes: [] } } } }));
    expect(batch.size).toBe(4);
    expect(batch.updates).toBe(3);
    expect(batch.acsDeletes.sort()).toEqual(['a', 'old']);
    expect(batch.acsInserts).toEqual(['b']);
    expect([batch.firstOffset, batch.lastOffset]).toEqual([1, 4]);
    expect(() => batch.add(el(transaction(4, [])))).toThrow(RangeError);
  });

  it("copies into active_contracts the last row of each contract active at the end of the batch, in the order the contracts first appeared, with the same bytes as a row written from the contract's fields", () => {
    const assigned = (offset: number, contractId: string, target: string, counter: number) => ({
      update: {
        Reassignment: {
          value: {
            updateId: `r-${offset}`, commandId: '', workflowId: '', offset, recordTime: '2026-01-01T00:00:02Z', synchronizerId: target,
            events: [{ JsAssignmentEvent: { source: sync, target, reassignmentId: `ra-${offset}`, submitter: 'Alice::1', reassignmentCounter: counter, createdEvent: created(offset, 0, contractId).CreatedEvent } }],
          },
        },
      },
    });
    const unassigned = (offset: number, contractId: string) => ({
      update: {
        Reassignment: {
          value: {
            updateId: `r-${offset}`, commandId: '', workflowId: '', offset, recordTime: '2026-01-01T00:00:02Z', synchronizerId: sync,
            events: [{ JsUnassignedEvent: { value: { reassignmentId: `ru-${offset}`, contractId, templateId: 'pkg1:Iou:Iou', source: sync, target: 'sync-b', submitter: 'Alice::1', reassignmentCounter: 1, witnessParties: ['Alice::1'], packageName: 'demo', offset, nodeId: 0 } } }],
          },
        },
      },
    });
    /** The active_contracts data written from the contracts' fields, one row each, in this order. */
    const expected = (rows: [offset: number, contractId: string, synchronizerId: string, counter: number][]) => {
      const out = new CopyBinary('s', copyRows.active.columns);
      for (const [offset, id, synchronizerId, counter] of rows) copyRows.active.write(out, activeRow(createdRow(created(offset, 0, id).CreatedEvent), synchronizerId, counter));
      return Buffer.concat(out.chunks()).toString('hex');
    };
    const activeData = (batch: IngestBatch) => {
      const copy = batch.copies().find((c) => c.statement === copyRows.active.statement);
      return copy === undefined ? undefined : { rows: copy.rows, text: Buffer.concat(copy.data).toString('hex') };
    };

    // every row written still active: the data as written
    const plain = new IngestBatch('s');
    plain.add(el(transaction(1, [created(1, 0, 'a'), created(1, 1, 'b')])));
    plain.add(el(transaction(2, [created(2, 0, 'c')])));
    expect(activeData(plain)).toEqual({ rows: 3, text: expected([[1, 'a', sync, 0], [1, 'b', sync, 0], [2, 'c', sync, 0]]) });

    // a contract archived, one unassigned then assigned back (its later row, in its first place), one created after
    const netted = new IngestBatch('s');
    netted.add(el(transaction(1, [created(1, 0, 'a'), created(1, 1, 'b')])));
    netted.add(el(unassigned(2, 'a')));
    netted.add(el(transaction(3, [{ ArchivedEvent: { offset: 3, nodeId: 0, contractId: 'b', templateId: 't', witnessParties: [], packageName: 'demo' } }, created(3, 1, 'c')])));
    netted.add(el(assigned(4, 'a', 'sync-b', 2)));
    expect(netted.acsInserts).toEqual(['a', 'c']);
    expect(netted.acsDeletes.sort()).toEqual(['a', 'b']);
    expect(activeData(netted)).toEqual({ rows: 2, text: expected([[4, 'a', 'sync-b', 2], [3, 'c', sync, 0]]) });

    // everything removed again: no active_contracts data at all
    const gone = new IngestBatch('s');
    gone.add(el(transaction(1, [created(1, 0, 'a')])));
    gone.add(el(transaction(2, [{ ArchivedEvent: { offset: 2, nodeId: 0, contractId: 'a', templateId: 't', witnessParties: [], packageName: 'demo' } }])));
    expect(activeData(gone)).toBeUndefined();
    expect(gone.acsDeletes).toEqual(['a']);
  });

  it('leaves a time not in the participant form to PostgreSQL: a statement per value after the COPY, for the rows copied', () => {
    const at = (event: ReturnType<typeof created>, createdAt: string) => ({ CreatedEvent: { ...event.CreatedEvent, createdAt } });
    const batch = new IngestBatch('s');
    const odd = transaction(1, [at(created(1, 0, 'a'), '2026-01-01 00:00:00+00'), at(created(1, 1, 'b'), 'infinity'), created(1, 2, 'c')]);
    odd.update.Transaction.value.recordTime = '2026-01-01T23:59:60Z';
    batch.add(el(odd));
    batch.add(el(transaction(2, [{ ArchivedEvent: { offset: 2, nodeId: 0, contractId: 'a', templateId: 't', witnessParties: [], packageName: 'demo' } }])));
    expect(batch.lateTimestamps).toEqual([
      { table: 'updates', column: 'record_time', text: '2026-01-01T23:59:60Z', where: 'ledger_offset = 1' },
      { table: 'created_events', column: 'created_at', text: '2026-01-01 00:00:00+00', where: 'ledger_offset = 1 AND node_id = 0' },
      { table: 'created_events', column: 'created_at', text: 'infinity', where: 'ledger_offset = 1 AND node_id = 1' },
      // 'a' was archived in the batch: its active_contracts row is not copied
      { table: 'active_contracts', column: 'created_at', text: 'infinity', where: "contract_id = E'b'" },
    ]);
    const plain = new IngestBatch('s');
    plain.add(el(transaction(1, [created(1, 0, 'a')])));
    expect(plain.lateTimestamps).toEqual([]);
  });

  it('encodes PostgreSQL array literals: ids bare, anything else quoted and escaped, NULL, numbers and booleans', () => {
    expect(pgArrayLiteral([])).toBe('{}');
    expect(pgArrayLiteral(['Alice::1220ab', 'a "quoted" \\ party'])).toBe('{Alice::1220ab,"a \\"quoted\\" \\\\ party"}');
    expect(pgArrayLiteral(['2026-01-01T00:00:00.5Z', 'pkg:Mod.Sub:T', '', 'null', 'NuLL', 'nullx', 'a,b', '{x}', ' sp', 'é', null])).toBe(
      '{2026-01-01T00:00:00.5Z,pkg:Mod.Sub:T,"","null","NuLL",nullx,"a,b","{x}"," sp","é",NULL}',
    );
    expect(pgArrayLiteral([0, -12, 9007199254740991, true, false, null])).toBe('{0,-12,9007199254740991,true,false,NULL}');
    // a ragged list of lists, as the party columns pass it: each inner literal is one quoted element
    expect(pgArrayLiteral([pgArrayLiteral(['A::1', 'B::2']), pgArrayLiteral([]), pgArrayLiteral(['x"y'])])).toBe('{"{A::1,B::2}","{}","{\\"x\\\\\\"y\\"}"}');
  });
});
