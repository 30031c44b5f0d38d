import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActiveSet } from '../../src/active-contracts/index.js';
import { createLedgerClient, newCommandId, type LedgerClient } from '../../src/client/index.js';
import { PrunedOffsetError } from '../../src/errors/index.js';
import { liveContracts, snapshotThenUpdates, type SnapshotElement } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { updateOffset } from '../../src/updates/index.js';
import { startCutProxy } from '../support/cut-proxy.js';
import { mulberry32 } from '../support/fault-proxy.js';
import { activeSetAt, firstDisorder } from '../support/ledger-oracle.js';
import { call } from '../support/sandbox-http.js';

/**
 * The property of issue 12 against the sandbox: for a workload with archives, reassignments (an incomplete one
 * included) and pruning, `snapshotThenUpdates` from any offset between the pruning offset and the ledger end
 * reconstructs exactly the active set a replay of the sandbox's own log from 0 gives, and `liveContracts`
 * equals that replay after every update it reports; with the connection cut in the snapshot or in the updates.
 */

let sandbox: Sandbox;
let client: LedgerClient;
let alice: string;
let prunedAt: number;
const eventFormat = () => ({ filtersByParty: { [alice]: { cumulative: [] } }, verbose: false });
const fast = { initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 5, jitter: 0 };
const activeIds = (at: number) => [...activeSetAt(sandbox, [alice], at)].filter(([, s]) => s === 'active').map(([id]) => id).sort();

async function createIou(): Promise<string> {
  const createArguments = { issuer: alice, owner: alice, currency: 'CHF', amount: '1.0000000000', observers: [] };
  const result = await sandbox.submit({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments } }], commandId: newCommandId('live'), actAs: [alice] });
  return result.contractIds[0] as string;
}

async function reassign(kind: 'UnassignCommand' | 'AssignCommand', value: Record<string, string>): Promise<string> {
  const r = await call(sandbox.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
    body: { reassignmentCommands: { userId: 'participant_admin', commandId: newCommandId('r'), submitter: alice, commands: [{ command: { [kind]: { value } } }] }, eventFormat: eventFormat() },
  });
  expect(r.status, r.text).toBe(200);
  const event = Object.values((r.json as { reassignment: { events: Record<string, { value?: { reassignmentId: string }; reassignmentId?: string }>[] } }).reassignment.events[0] ?? {})[0];
  return (event?.value?.reassignmentId ?? event?.reassignmentId) as string;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 300, synchronizers: 2, maxListElements: 1000 });
  alice = sandbox.partyId('Alice');
  const [s0, s1] = sandbox.state.synchronizers.map((s) => s.id) as [string, string];
  const ids = [await createIou(), await createIou(), await createIou()];
  prunedAt = sandbox.ledgerEnd();
  // Away and back, away for good (an incomplete unassignment at the end), and one archived by a transfer in the seed.
  const first = await reassign('UnassignCommand', { contractId: ids[0] as string, source: s0, target: s1 });
  await createIou();
  await reassign('AssignCommand', { reassignmentId: first, source: s0, target: s1 });
  await reassign('UnassignCommand', { contractId: ids[1] as string, source: s0, target: s1 });
  for (let i = 0; i < 5; i++) await createIou();
  sandbox.seed(40);
  sandbox.prune(Math.floor(prunedAt / 2));
  prunedAt = Math.floor(prunedAt / 2);
  client = createLedgerClient({ baseUrl: sandbox.url });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

/** The active set after folding `elements` (a snapshot, its marker, updates) into an ActiveSet; checks the seam. */
function fold(elements: readonly SnapshotElement[], from: number): string[] {
  const set = new ActiveSet();
  const offsets: number[] = [];
  for (const e of elements) {
    if (e.kind === 'active-contract') set.addSnapshotEntry(e.entry);
    else if (e.kind === 'snapshot-end') {
      expect(e.offset).toBe(from);
      set.snapshotLoaded();
    } else {
      offsets.push(updateOffset(e.element) as number);
      set.applyUpdate(e.element);
    }
  }
  expect(offsets.every((o) => o > from)).toBe(true);
  expect(firstDisorder(offsets)).toBe(-1);
  return [...set.contracts.keys()].sort();
}

describe('snapshotThenUpdates and liveContracts against the sandbox', () => {
  it('from any offset between the pruning offset and the ledger end: the replayed active set at the end; liveContracts after every update', async () => {
    const end = sandbox.ledgerEnd();
    const random = mulberry32(12);
    const starts = [prunedAt, end, ...Array.from({ length: 3 }, () => prunedAt + Math.floor(random() * (end - prunedAt)))];
    expect(activeIds(end).length).toBeGreaterThan(5);
    for (const from of starts) {
      const elements = await lastValueFrom(snapshotThenUpdates(client, { eventFormat: eventFormat(), activeAtOffset: from, endInclusive: end }).pipe(toArray()));
      expect(fold(elements, from), `from ${from}`).toEqual(activeIds(end));
    }
    const from = starts[2] as number;
    const states = await lastValueFrom(liveContracts(client, { eventFormat: eventFormat(), activeAtOffset: from, endInclusive: end }).pipe(toArray()));
    expect(states[0]?.offset).toBe(from);
    expect(states.length).toBeGreaterThan(3);
    for (const state of states) expect([...state.contracts.keys()].sort(), `at ${state.offset}`).toEqual(activeIds(state.offset));
  });

  it('before the pruning offset the snapshot is PrunedOffsetError', async () => {
    const error = await lastValueFrom(snapshotThenUpdates(client, { eventFormat: eventFormat(), activeAtOffset: prunedAt - 1, endInclusive: sandbox.ledgerEnd() })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrunedOffsetError);
  });

  it.each([
    ['in the snapshot', 'GET /v2/state/active-contracts '],
    ['in the updates', 'GET /v2/updates HTTP'],
  ])('a connection cut %s: the same set, nothing doubled, at the same snapshot offset', async (_where, path) => {
    const end = sandbox.ledgerEnd();
    const proxy = await startCutProxy(sandbox.url, { match: (head) => head.startsWith(path), afterBytes: 6_000 });
    const cutClient = createLedgerClient({ baseUrl: proxy.url });
    try {
      const from = prunedAt + 1;
      const elements = await lastValueFrom(
        snapshotThenUpdates(cutClient, { eventFormat: eventFormat(), activeAtOffset: from, endInclusive: end, retry: fast }).pipe(toArray()),
      );
      expect(proxy.cuts()).toBe(1);
      const ids = elements.filter((e) => e.kind === 'active-contract').map((e) => JSON.stringify(e.entry.contractEntry));
      expect(new Set(ids).size).toBe(ids.length);
      expect(fold(elements, from)).toEqual(activeIds(end));
    } finally {
      await cutClient.close();
      await proxy.close();
    }
  });
});
