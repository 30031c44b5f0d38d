import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { ACS, checkAgainstLog, createIou, eventFormat, filters, postUpdates, templateFilter, updateFormat } from './ledger-support.js';

let sandbox: Sandbox;
let alice: string;
let bob: string;
let charlie: string;
let sync0: string;
let sync1: string;

beforeAll(async () => {
  sandbox = await startSandbox({ synchronizers: 2 });
  [alice, bob, charlie] = ['Alice', 'Bob', 'Charlie'].map((h) => sandbox.partyId(h)) as [string, string, string];
  [sync0, sync1] = sandbox.state.synchronizers.map((s) => s.id) as [string, string];
});
afterAll(() => sandbox.close());

let n = 0;
const newIou = async () => (await sandbox.submit({ commands: [createIou(alice, bob)], commandId: `r-${++n}`, actAs: [alice] })).contractIds[0] as string;
const unassign = (contractId: string, source = sync0, target = sync1) => ({ command: { UnassignCommand: { value: { contractId, source, target } } } });
const assign = (reassignmentId: string, source = sync0, target = sync1) => ({ command: { AssignCommand: { value: { reassignmentId, source, target } } } });
function request(commands: unknown[], overrides: Record<string, unknown> = {}, eventFormatValue?: unknown) {
  return {
    reassignmentCommands: { userId: 'alice-user', commandId: `rc-${++n}`, submitter: alice, commands, ...overrides },
    ...(eventFormatValue === undefined ? {} : { eventFormat: eventFormatValue }),
  };
}
const post = (body: unknown, raw?: string) =>
  call(sandbox.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', raw === undefined ? { body } : { rawBody: raw });

describe('submit-and-wait-for-reassignment validation (docs/server-behavior.md#reassignment-validation-order, in order)', () => {
  let cid: string;
  beforeAll(async () => {
    cid = await newIou();
  });

  const rows: { name: string; body: () => unknown; raw?: string; status: number; code?: string; cause?: RegExp; text?: RegExp }[] = [
    { name: 'malformed JSON', body: () => undefined, raw: '[', status: 400, text: /^Invalid value for: body/ },
    { name: 'a oneof without value', body: () => request([{ command: { UnassignCommand: {} } }]), status: 400, text: /value/ },
    { name: 'no user id without a token', body: () => request([unassign(cid)], { userId: '' }), status: 400, code: 'INVALID_TOKEN' },
    { name: 'empty event format', body: () => request([unassign(cid)], {}, { filtersByParty: {} }), status: 400, code: 'INVALID_ARGUMENT', cause: /cannot be empty/ },
    { name: 'empty submitter', body: () => request([unassign(cid)], { submitter: '' }), status: 400, code: 'INVALID_FIELD', cause: /submitter/ },
    { name: 'invalid user id', body: () => request([unassign(cid)], { userId: 'no user!' }), status: 400, code: 'INVALID_FIELD', cause: /user_id/ },
    { name: 'empty command id', body: () => request([unassign(cid)], { commandId: '' }), status: 400, code: 'INVALID_FIELD', cause: /command_id/ },
    { name: 'invalid workflow id', body: () => request([unassign(cid)], { workflowId: 'wf!' }), status: 400, code: 'INVALID_FIELD', cause: /workflow_id/ },
    { name: 'empty command', body: () => request([{ command: { Empty: {} } }]), status: 400, code: 'MISSING_FIELD', cause: /command$/ },
    { name: 'missing command', body: () => request([{}]), status: 400, code: 'MISSING_FIELD', cause: /command$/ },
    { name: 'empty source', body: () => request([unassign(cid, '')]), status: 400, code: 'MISSING_FIELD', cause: /source/ },
    { name: 'malformed target', body: () => request([unassign(cid, sync0, 'sync-b')]), status: 400, code: 'INVALID_FIELD', cause: /target/ },
    { name: 'unparsable reassignment id', body: () => request([assign('not-hex!')]), status: 400, code: 'INVALID_FIELD', cause: /Invalid reassignment ID/ },
    { name: 'empty contract id', body: () => request([unassign('')]), status: 400, code: 'MISSING_FIELD', cause: /contract_id/ },
    { name: 'no commands', body: () => request([]), status: 400, code: 'MISSING_FIELD', cause: /commands/ },
    { name: 'unknown package in the event format', body: () => request([unassign(cid)], {}, eventFormat([alice], filters(templateFilter('#nope:A:B')))), status: 404, code: 'PACKAGE_NAMES_NOT_FOUND' },
    { name: 'mixed kinds', body: () => request([unassign(cid), assign('0f12')]), status: 400, code: 'INVALID_ARGUMENT' },
    { name: 'target not connected', body: () => request([unassign(cid, sync0, `elsewhere::1220${'0'.repeat(64)}`)]), status: 400, code: 'INVALID_FIELD', cause: /not connected/ },
    { name: 'same source and target', body: () => request([unassign(cid, sync0, sync0)]), status: 400, code: 'INVALID_ARGUMENT' },
    { name: 'unknown contract', body: () => request([unassign(`00${'3'.repeat(64)}`)]), status: 404, code: 'CONTRACT_NOT_FOUND' },
    { name: 'contract not on the source', body: () => request([unassign(cid, sync1, sync0)]), status: 404, code: 'CONTRACT_NOT_FOUND' },
    { name: 'submitter not a stakeholder', body: () => request([unassign(cid)], { submitter: charlie }), status: 404, code: 'CONTRACT_NOT_FOUND' },
    { name: 'no pending unassignment', body: () => request([assign(`0f${'0'.repeat(62)}`)]), status: 404, code: 'REASSIGNMENT_NOT_FOUND' },
  ];

  it.each(rows)('$name', async (row) => {
    const before = sandbox.ledgerEnd();
    const r = await post(row.body(), row.raw);
    expect(r.status, r.text).toBe(row.status);
    expect(sandbox.ledgerEnd()).toBe(before);
    if (row.text) {
      expect(r.contentType).toMatch(/^text\/plain/);
      expect(r.text).toMatch(row.text);
      return;
    }
    expect(r.json).toMatchObject({ code: row.code });
    if (row.cause) expect((r.json as { cause: string }).cause).toMatch(row.cause);
  });

  it('errors of the validator carry the submission id as correlation id', async () => {
    const r = await post(request([unassign(cid)], { submitter: '', submissionId: 'sub-7' }));
    expect(r.json).toMatchObject({ code: 'INVALID_FIELD', correlationId: 'sub-7' });
  });
});

describe('unassign and assign', () => {
  it('moves a contract between synchronizers, with ACS-delta events in the answer and the update log', async () => {
    const cid = await newIou();
    const begin = sandbox.ledgerEnd();
    const out = await post(request([unassign(cid)], { workflowId: 'move' }, eventFormat([bob])));
    expect(out.status, out.text).toBe(200);
    const reassignment = (out.json as { reassignment: Record<string, unknown> }).reassignment;
    expect(reassignment).toMatchObject({ commandId: expect.stringMatching(/^rc-/), workflowId: 'move', synchronizerId: sync0, traceContext: null, paidTrafficCost: expect.any(Number) });
    const unassigned = (reassignment['events'] as { JsUnassignedEvent: { value: Record<string, unknown> } }[])[0]?.JsUnassignedEvent.value as Record<string, unknown>;
    expect(unassigned).toMatchObject({ contractId: cid, source: sync0, target: sync1, submitter: alice, reassignmentCounter: 1, witnessParties: [bob], assignmentExclusivity: null, nodeId: 0, packageName: 'ledger-rx-demo' });

    // Off the source: it cannot be exercised or unassigned again.
    await expect(sandbox.submit({ commands: [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: cid, choice: 'Iou_Observe', choiceArgument: {} } }], commandId: `x-${++n}`, actAs: [alice] })).rejects.toThrow(/CONTRACT_NOT_FOUND/);
    expect((await post(request([unassign(cid)]))).status).toBe(404);

    const id = unassigned['reassignmentId'] as string;
    expect((await post(request([assign(id, sync1, sync0)]))).status).toBe(404);
    const back = await post(request([assign(id)]));
    expect(back.status, back.text).toBe(200);
    const assigned = (back.json as { reassignment: Record<string, unknown> }).reassignment;
    expect(assigned).toMatchObject({ synchronizerId: sync1, events: [] });

    // Active again, on the target: exercising it there needs the package vetted on sync1 (the sandbox
    // starts without vetting state on its second synchronizer); then it is a transaction on sync1.
    const archive = { ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: cid, choice: 'Archive', choiceArgument: {} } };
    await expect(sandbox.submit({ commands: [archive], commandId: `x-${++n}`, actAs: [alice] })).rejects.toThrow(/NO_SYNCHRONIZER_FOR_SUBMISSION.*not vetted/);
    const vetting = sandbox.state.vetting;
    vetting.publish(sync1, sandbox.state.participantId, vetting.get(sync0, sandbox.state.participantId)?.packages ?? []);
    const ex = await sandbox.submit({ commands: [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: cid, choice: 'Archive', choiceArgument: {} } }], commandId: `x-${++n}`, actAs: [alice] });
    const [exerciseUpdate] = sandbox.updates({ beginExclusive: ex.offset - 1 });
    expect(exerciseUpdate?.synchronizerId).toBe(sync1);

    const end = sandbox.ledgerEnd();
    const read = await postUpdates(sandbox, { beginExclusive: begin, endInclusive: end, updateFormat: updateFormat([bob], ACS, { reassignments: true }) });
    const elements = checkAgainstLog(sandbox, read.json, { transactions: { shape: ACS, parties: [bob] }, reassignments: { parties: [bob] } }, { beginExclusive: begin, endInclusive: end });
    expect(elements.map((e) => e.kind)).toEqual(['Reassignment', 'Reassignment', 'Transaction']);
    const assignment = (elements[1]?.value['events'] as { JsAssignmentEvent: Record<string, unknown> }[])[0]?.JsAssignmentEvent;
    expect(assignment).toMatchObject({ source: sync0, target: sync1, reassignmentId: id, submitter: alice, reassignmentCounter: 1 });
    expect(assignment?.['createdEvent']).toMatchObject({ contractId: cid, offset: elements[1]?.offset, witnessParties: [bob], acsDelta: true, signatories: [alice] });
    expect(elements[0]?.value).toMatchObject({ commandId: '' });

    // Reassignments are not shown without includeReassignments, nor to non-stakeholders.
    const noReassignments = await postUpdates(sandbox, { beginExclusive: begin, endInclusive: end, updateFormat: updateFormat([bob]) });
    checkAgainstLog(sandbox, noReassignments.json, { transactions: { shape: ACS, parties: [bob] } }, { beginExclusive: begin, endInclusive: end });
    const charlieView = await postUpdates(sandbox, { beginExclusive: begin, endInclusive: end, updateFormat: updateFormat([charlie], ACS, { reassignments: true }) });
    expect(checkAgainstLog(sandbox, charlieView.json, { transactions: { shape: ACS, parties: [charlie] }, reassignments: { parties: [charlie] } }, { beginExclusive: begin, endInclusive: end })).toEqual([]);
  });

  it('several unassignments in one request are one update; the summary shows them', async () => {
    const a = await newIou();
    const b = await newIou();
    const r = await post(request([unassign(a), unassign(b)], {}, eventFormat('any')));
    expect(r.status, r.text).toBe(200);
    const events = (r.json as { reassignment: { events: unknown[]; offset: number } }).reassignment;
    expect(events.events).toHaveLength(2);
    const [u] = sandbox.updates({ beginExclusive: events.offset - 1 });
    expect(u).toMatchObject({ kind: 'Reassignment', events: [{ kind: 'Unassigned', contractId: a, reassignmentCounter: 1 }, { kind: 'Unassigned', contractId: b }] });
  });

  it('a single-synchronizer participant knows no target: INVALID_FIELD', async () => {
    const single = await startSandbox();
    try {
      const a = single.partyId('Alice');
      const cid = (await single.submit({ commands: [createIou(a, a)], commandId: 'one', actAs: [a] })).contractIds[0] as string;
      const sync = single.state.synchronizers[0]?.id as string;
      const r = await call(single.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
        body: { reassignmentCommands: { userId: 'u', commandId: 'c', submitter: a, commands: [unassign(cid, sync, `other::1220${'9'.repeat(64)}`)] } },
      });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 'INVALID_FIELD', cause: expect.stringMatching(/target: synchronizer .* is not connected/) });
    } finally {
      await single.close();
    }
  });
});
