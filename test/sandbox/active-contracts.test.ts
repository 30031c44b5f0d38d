import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type LedgerUpdate, type Sandbox } from '../../src/sandbox/index.js';
import { activeContractsAt } from '../../src/sandbox/ledger/active-contracts-at.js';
import { call, type RawResponse } from '../support/sandbox-http.js';
import { readToClose } from '../support/sandbox-ws.js';
import { expectError } from './auth-test-kit.js';
import { createIou, eventFormat } from './ledger-support.js';

type Entry = { workflowId: string; streamContinuationToken: string; contractEntry: Record<string, { createdEvent: { contractId: string; offset: number }; synchronizerId?: string; reassignmentCounter?: number; unassignedEvent?: { reassignmentId: string } }> };

let sandbox: Sandbox;
let alice: string;
let ef: Record<string, unknown>;
let syncs: string[];

const acs = (body: unknown, query = ''): Promise<RawResponse> => call(sandbox.url, 'POST', `/v2/state/active-contracts${query}`, { body });
const page = (body: unknown): Promise<RawResponse> => call(sandbox.url, 'GET', '/v2/state/active-contracts-page', { body });
const idOf = (e: Entry) => (Object.values(e.contractEntry)[0] as { createdEvent: { contractId: string } }).createdEvent.contractId;
const kindOf = (e: Entry) => Object.keys(e.contractEntry)[0];

/** Alice's active contracts at `at`, replayed independently from the sandbox's own log (contract id → synchronizer, or 'unassigned'). */
function oracle(updates: readonly LedgerUpdate[], at: number): Map<string, string> {
  const out = new Map<string, string>();
  const mine = new Set<string>();
  for (const u of updates) {
    if (u.offset > at) break;
    if (u.kind === 'Transaction') {
      for (const e of u.events) {
        if (e.kind === 'Created' && e.acsDelta && [...e.signatories, ...e.observers].includes(alice)) {
          out.set(e.contractId, u.synchronizerId);
          mine.add(e.contractId);
        } else if (e.kind === 'Exercised' && e.consuming) out.delete(e.contractId);
      }
    } else if (u.kind === 'Reassignment') {
      for (const e of u.events) if (mine.has(e.contractId)) out.set(e.contractId, e.kind === 'Unassigned' ? 'unassigned' : e.target);
    }
  }
  return out;
}

async function reassign(kind: 'UnassignCommand' | 'AssignCommand', value: Record<string, string>): Promise<string> {
  const r = await call(sandbox.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
    body: { reassignmentCommands: { userId: 'participant_admin', commandId: `r-${Math.random()}`, submitter: alice, commands: [{ command: { [kind]: { value } } }] }, eventFormat: ef },
  });
  expect(r.status, r.text).toBe(200);
  const event = (r.json as { reassignment: { events: Record<string, { value?: { reassignmentId: string }; reassignmentId?: string }>[] } }).reassignment.events[0] as Record<string, { value?: { reassignmentId: string }; reassignmentId?: string }>;
  const v = Object.values(event)[0];
  return (v?.value?.reassignmentId ?? v?.reassignmentId) as string;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 120, synchronizers: 2, maxListElements: 500 });
  alice = sandbox.partyId('Alice');
  ef = eventFormat([alice]);
  syncs = sandbox.state.synchronizers.map((s) => s.id);
});
afterAll(() => sandbox.close());

describe('active contracts', () => {
  it('at the ledger end and at an earlier offset, the list is exactly the set replayed from the log; 0 is the empty set', async () => {
    const end = sandbox.ledgerEnd();
    for (const at of [end, Math.floor(end / 2)]) {
      const r = await acs({ eventFormat: ef, activeAtOffset: at });
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      const entries = r.json as Entry[];
      const expected = oracle(sandbox.updates(), at);
      expect(new Set(entries.map(idOf))).toEqual(new Set(expected.keys()));
      expect(entries.every((e) => e.streamContinuationToken !== '')).toBe(true);
      const offsets = entries.map((e) => (Object.values(e.contractEntry)[0] as { createdEvent: { offset: number } }).createdEvent.offset);
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    }
    expect((await acs({ eventFormat: ef, activeAtOffset: 0 })).json).toEqual([]);
  });

  it('an unassigned contract is an incomplete reassignment until its assignment makes it active on the target', async () => {
    const cid = (await sandbox.submit({ commands: [createIou(alice, alice)], commandId: `acs-${Math.random()}`, actAs: [alice] })).contractIds[0] as string;
    const reassignmentId = await reassign('UnassignCommand', { contractId: cid, source: syncs[0] as string, target: syncs[1] as string });
    const unassignedAt = sandbox.ledgerEnd();
    const during = (await acs({ eventFormat: ef, activeAtOffset: unassignedAt })).json as Entry[];
    const incomplete = during.filter((e) => idOf(e) === cid);
    expect(incomplete.map(kindOf)).toEqual(['JsIncompleteUnassigned']);
    expect(incomplete[0]?.contractEntry['JsIncompleteUnassigned']?.unassignedEvent?.reassignmentId).toBe(reassignmentId);
    expect(kindOf(during.at(-1) as Entry)).toBe('JsIncompleteUnassigned'); // incomplete reassignments come after the active contracts
    await reassign('AssignCommand', { reassignmentId, source: syncs[0] as string, target: syncs[1] as string });
    const after = ((await acs({ eventFormat: ef, activeAtOffset: sandbox.ledgerEnd() })).json as Entry[]).filter((e) => idOf(e) === cid);
    expect(after[0]?.contractEntry['JsActiveContract']).toMatchObject({ synchronizerId: syncs[1], reassignmentCounter: 1, createdEvent: { offset: sandbox.ledgerEnd() } });
    const earlier = ((await acs({ eventFormat: ef, activeAtOffset: unassignedAt })).json as Entry[]).filter((e) => idOf(e) === cid);
    expect(earlier.map(kindOf)).toEqual(['JsIncompleteUnassigned']); // the past does not change
    expect(oracle(sandbox.updates(), unassignedAt).get(cid)).toBe('unassigned');
  });

  it('the set at an offset is computed once and reused, and stays exact after later archives and reads at more offsets than it keeps', async () => {
    const cid = (await sandbox.submit({ commands: [createIou(alice, alice)], commandId: `acs-${Math.random()}`, actAs: [alice] })).contractIds[0] as string;
    const at = sandbox.ledgerEnd();
    const ledger = sandbox.state.ledger;
    const first = activeContractsAt(ledger, at);
    expect(activeContractsAt(ledger, at)).toBe(first); // the same array: not recomputed
    const read = async (offset: number) => new Set(((await acs({ eventFormat: ef, activeAtOffset: offset })).json as Entry[]).map(idOf));
    expect(await read(at)).toEqual(new Set(oracle(sandbox.updates(), at).keys()));
    await sandbox.submit({ commands: [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: cid, choice: 'Archive', choiceArgument: {} } }], commandId: `acs-${Math.random()}`, actAs: [alice] });
    const end = sandbox.ledgerEnd();
    expect((await read(end)).has(cid)).toBe(false);
    expect((await read(at)).has(cid)).toBe(true); // the archive came later
    expect(activeContractsAt(ledger, at)).toBe(first);
    // Reads at more offsets than are kept per ledger evict it; the recomputed set is the same set.
    const others = [1, 2, 3, 4, 5].map((k) => Math.floor((at * k) / 6));
    for (const o of others) expect(await read(o)).toEqual(new Set(oracle(sandbox.updates(), o).keys()));
    const again = activeContractsAt(ledger, at);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(await read(at)).toEqual(new Set(oracle(sandbox.updates(), at).keys()));
  });

  it('refuses what the participant refuses', async () => {
    const end = sandbox.ledgerEnd();
    expectError(await acs({ eventFormat: ef, activeAtOffset: end + 1 }), 400, 'OFFSET_AFTER_LEDGER_END');
    expectError(await acs({ eventFormat: ef, filter: { filtersByParty: {} }, activeAtOffset: end }), 400, 'INVALID_ARGUMENT');
    expectError(await acs({ activeAtOffset: end }), 400, 'INVALID_ARGUMENT');
    expectError(await acs({ eventFormat: ef, activeAtOffset: -1 }), 400, 'NEGATIVE_OFFSET');
    expectError(await acs({ eventFormat: eventFormat([alice], { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: '#nope:A:B' } } } }] }), activeAtOffset: end }), 404, 'PACKAGE_NAMES_NOT_FOUND');
    const legacy = await acs({ filter: { filtersByParty: { [alice]: {} } }, activeAtOffset: end });
    expect(legacy.status).toBe(200);
    const pruned = await startSandbox({ seed: 20, maxListElements: 3 });
    try {
      pruned.prune(10);
      const r = await call(pruned.url, 'POST', '/v2/state/active-contracts', { body: { eventFormat: eventFormat([pruned.partyId('Alice')]), activeAtOffset: 5 } });
      expect(expectError(r, 400, 'PARTICIPANT_PRUNED_DATA_ACCESSED').context['earliest_offset']).toBe('10');
      expect((await call(pruned.url, 'POST', '/v2/state/active-contracts', { body: { eventFormat: eventFormat([pruned.partyId('Alice')]), activeAtOffset: 10 } })).status).toBe(200);
      const over = await call(pruned.url, 'POST', '/v2/state/active-contracts', { body: { eventFormat: eventFormat('any'), activeAtOffset: pruned.ledgerEnd() } });
      expectError(over, 413, 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
    } finally {
      await pruned.close();
    }
  });

  it('over WebSocket: the same entries, one frame each, then 1000; a continuation token resumes after its entry', async () => {
    const at = sandbox.ledgerEnd();
    const list = (await acs({ eventFormat: ef, activeAtOffset: at })).json as Entry[];
    const ws = await readToClose(sandbox.url, '/v2/state/active-contracts', { eventFormat: ef, activeAtOffset: at });
    expect(ws.close.code).toBe(1000);
    expect(ws.frames).toEqual(list);
    const k = 3;
    const resumed = await readToClose(sandbox.url, '/v2/state/active-contracts', { eventFormat: ef, activeAtOffset: at, streamContinuationToken: list[k - 1]?.streamContinuationToken });
    expect(resumed.frames).toEqual(list.slice(k));
    const foreign = await readToClose(sandbox.url, '/v2/state/active-contracts', { eventFormat: ef, activeAtOffset: at - 1, streamContinuationToken: list[0]?.streamContinuationToken });
    expect(foreign.frames).toEqual([expect.objectContaining({ code: 'INVALID_CONTINUATION_TOKEN' })]);
  });

  it('in pages: the same entries without continuation tokens; the token is bound to the offset and format, not the page size', async () => {
    const list = ((await acs({ eventFormat: ef, activeAtOffset: sandbox.ledgerEnd() })).json as Entry[]).map((e) => ({ ...e, streamContinuationToken: '' }));
    const pages: { activeContracts: Entry[]; activeAtOffset: number; nextPageToken: string | null }[] = [];
    let body: Record<string, unknown> = { eventFormat: ef, maxPageSize: 4 };
    for (;;) {
      const r = await page(body);
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      const p = r.json as (typeof pages)[number];
      pages.push(p);
      if (pages.length === 1) sandbox.seed(5); // the next pages stay at the offset of the first
      if (p.nextPageToken === null) break;
      body = { eventFormat: ef, maxPageSize: pages.length % 2 === 0 ? 4 : 5, pageToken: p.nextPageToken };
    }
    expect(pages.flatMap((p) => p.activeContracts)).toEqual(list);
    expect(new Set(pages.map((p) => p.activeAtOffset)).size).toBe(1);
    const token = pages[0]?.nextPageToken;
    expectError(await page({ eventFormat: eventFormat([alice, sandbox.partyId('Bob')]), pageToken: token }), 400, 'INVALID_ACS_PAGE_TOKEN');
    expectError(await page({ eventFormat: ef, maxPageSize: 10_001 }), 400, 'INVALID_ARGUMENT');
    expectError(await page({ maxPageSize: 10 }), 400, 'MISSING_FIELD');
  });
});
