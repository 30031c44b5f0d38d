import { lastValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, newCommandId, type LedgerClient, type Transport } from '../../src/client/index.js';
import { activeContractsSnapshot, type TailStatus } from '../../src/operators/index.js';
import { completionOf, completionOffset, isCompletionCheckpoint } from '../../src/completions/index.js';
import type { JsGetActiveContractsResponse } from '../../src/schemas/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startCutProxy } from '../support/cut-proxy.js';
import { activeSetAt, firstDisorder } from '../support/ledger-oracle.js';

/** A transport one request goes over (every `Transport` but the operators' `'auto'`). */
type RequestTransport = Exclude<Transport, 'auto'>;

/**
 * `client.activeContracts` and `client.completions` against the sandbox, on every transport: the snapshot is
 * exactly the active set the sandbox's own log replays to at the offset the read reports, each entry once and
 * in the participant's order; a connection dropped mid-snapshot resumes at the same offset after the last
 * entry, while the ledger moves on; completions arrive for what was submitted, offsets strictly increasing.
 */

let sandbox: Sandbox;
let alice: string;
const eventFormat = () => ({ filtersByParty: { [alice]: { cumulative: [] } }, verbose: false });
const fast = { initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 5, jitter: 0 };

const contractIdOf = (e: JsGetActiveContractsResponse): string => {
  const payload = Object.values(e.contractEntry as Record<string, { createdEvent?: { contractId: string }; assignedEvent?: { createdEvent: { contractId: string } } }>)[0];
  return payload?.createdEvent?.contractId ?? payload?.assignedEvent?.createdEvent.contractId ?? '?';
};
const activationOffset = (e: JsGetActiveContractsResponse): number =>
  (Object.values(e.contractEntry as Record<string, { createdEvent?: { offset: number } }>)[0]?.createdEvent?.offset ?? -1);

const createIou = (owner: string) => ({
  CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: owner, owner, currency: 'CHF', amount: '1.0000000000', observers: [] } },
});

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 400, maxListElements: 1000, defaultAcsPageSize: 50 });
  alice = sandbox.partyId('Alice');
});
afterAll(() => sandbox.close());

/** Reads the whole snapshot with a fresh client through `baseUrl`; the statuses and the reported offset with it. */
async function snapshot(baseUrl: string, transport: RequestTransport, activeAtOffset?: number) {
  const client = createLedgerClient({ baseUrl });
  const statuses: TailStatus[] = [];
  let reported: number | undefined;
  try {
    const entries = await lastValueFrom(
      activeContractsSnapshot(
        client,
        { eventFormat: eventFormat(), ...(activeAtOffset === undefined ? {} : { activeAtOffset }) },
        { transport, pageSize: 40, retry: fast, onStatus: (s) => statuses.push(s), onActiveAtOffset: (o) => (reported = o) },
      ).pipe(toArray()),
    );
    return { entries, statuses, reported };
  } finally {
    await client.close();
  }
}

function expectExactly(entries: readonly JsGetActiveContractsResponse[], at: number): void {
  const ids = entries.map(contractIdOf);
  expect(new Set(ids).size, 'no entry twice').toBe(ids.length);
  expect(new Set(ids)).toEqual(new Set(activeSetAt(sandbox, [alice], at).keys()));
  const offsets = entries.map(activationOffset);
  expect(offsets.every((o) => o > 0 && o <= at)).toBe(true);
  expect(firstDisorder(offsets.map((o, i) => o * 1e6 + i)), 'in activation order').toBe(-1);
}

describe('client.activeContracts against the sandbox', () => {
  it('reads the snapshot at the ledger end over websocket, page and list: the same entries in the same order, exactly the active set at the reported offset', async () => {
    const end = sandbox.ledgerEnd();
    const reads = await Promise.all((['websocket', 'page', 'list'] as const).map((t) => snapshot(sandbox.url, t)));
    for (const { entries, reported } of reads) {
      expect(reported).toBe(end);
      expectExactly(entries, end);
    }
    expect(reads[0]?.entries.length).toBeGreaterThan(80); // several pages of 40
    expect(reads[1]?.entries.map(contractIdOf)).toEqual(reads[0]?.entries.map(contractIdOf));
    expect(reads[2]?.entries.map(contractIdOf)).toEqual(reads[0]?.entries.map(contractIdOf));
    // An earlier offset is the set at that offset.
    const earlier = Math.floor(end / 2);
    const past = await snapshot(sandbox.url, 'websocket', earlier);
    expect(past.reported).toBe(earlier);
    expectExactly(past.entries, earlier);
  });

  it.each(['websocket', 'page', 'list'] as const)('%s: a connection dropped mid-snapshot resumes at the same offset after the last entry, while the ledger moves on', async (transport) => {
    const end = sandbox.ledgerEnd();
    const path = transport === 'websocket' ? 'GET /v2/state/active-contracts ' : transport === 'page' ? 'GET /v2/state/active-contracts-page' : 'POST /v2/state/active-contracts';
    // Cut one and a half pages into the answer: the first page of the page read is delivered, the second is cut.
    const sizer = createLedgerClient({ baseUrl: sandbox.url });
    const firstPage = await sizer.activeContractsPage({ eventFormat: eventFormat(), maxPageSize: 40 });
    await sizer.close();
    const cutAt = Math.floor(JSON.stringify(firstPage).length * 1.5);
    const proxy = await startCutProxy(sandbox.url, {
      match: (head) => head.startsWith(path),
      afterBytes: cutAt,
      beforeCut: async () => {
        await sandbox.submit({ commands: [createIou(alice)], commandId: newCommandId('moved'), actAs: [alice] });
      },
    });
    try {
      const { entries, statuses, reported } = await snapshot(proxy.url, transport);
      expect(proxy.cuts()).toBe(1);
      expect(sandbox.ledgerEnd()).toBeGreaterThan(end);
      expect(reported).toBe(end);
      expectExactly(entries, end);
      const resumed = statuses.filter((s) => s.type === 'resumed');
      // The read learns the offset from the participant (-1 before); the retry is at the same offset.
      expect(resumed.map((s) => s.type === 'resumed' && s.fromOffset)).toEqual([-1, end]);
      expect(statuses.filter((s) => s.type === 'retrying')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

describe('client.completions against the sandbox', () => {
  let client: LedgerClient;
  beforeAll(() => {
    client = createLedgerClient({ baseUrl: sandbox.url });
  });
  afterAll(() => client.close());

  it.each(['websocket', 'list'] as const)('%s: one completion per submission, success and failure, offsets strictly increasing, from the ledger end', async (transport) => {
    const begin = sandbox.ledgerEnd();
    const ids = [newCommandId('c'), newCommandId('c'), newCommandId('c')];
    sandbox.injectSubmissionFault({ kind: 'contention' });
    for (const commandId of ids) await client.submit({ commands: [createIou(alice)], commandId, actAs: [alice], userId: 'participant_admin' });
    const read = client.completions({ parties: [alice], beginExclusive: begin }, transport === 'list' ? { transport, limit: 3, streamIdleTimeoutMs: 2_000 } : { transport });
    const elements = await lastValueFrom(read.pipe(take(3), toArray()));
    const completions = elements.filter((e) => !isCompletionCheckpoint(e)).map((e) => completionOf(e));
    expect(completions.map((c) => c?.commandId)).toEqual(ids);
    expect(completions.map((c) => c?.status?.code ?? 0)).toEqual([10, 0, 0]); // ABORTED (contention), then OK
    expect(completions[0]?.updateId ?? '').toBe('');
    expect(completions[1]?.updateId).not.toBe('');
    const offsets = elements.map((e) => completionOffset(e) ?? -1);
    expect(offsets[0]).toBeGreaterThan(begin);
    expect(firstDisorder(offsets)).toBe(-1);
  });
});
