import { lastValueFrom, tap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/index.js';
import { PrunedOffsetError } from '../../src/errors/index.js';
import { MemoryCheckpointStore } from '../../src/checkpoints/index.js';
import { tailUpdates, trackCheckpoint, type Transport } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../support/fault-proxy.js';
import { isOffsetCheckpoint } from '../../src/updates/index.js';
import { elementOffset, expectedOffsets, viewFormat, type TransactionView } from '../support/ledger-oracle.js';

/** A transport one request goes over (every `Transport` but the operators' `'auto'`). */
type RequestTransport = Exclude<Transport, 'auto'>;

/**
 * Pruning on every transport, under faults: a tail whose resume position is pruned while it reconnects
 * (after a cut WebSocket, a failed page, a 503 list page) fails with `PrunedOffsetError` naming the
 * earliest offset, at once (the request is not repeated), after delivering every update before it exactly
 * once, in order; the checkpoint holds the last delivered offset. It never skips the pruned stretch
 * silently. A tail that starts below the pruning offset fails the same way before delivering anything.
 */

const view: TransactionView = { parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' };
const retry = { initialDelayMs: 1, maxDelayMs: 10, jitter: 0, maxAttempts: 20 };

/** Which requests of a transport read updates (the ledger-end calls around them pass untouched). */
const readsOf: Record<RequestTransport, (method: string, path: string) => boolean> = {
  websocket: (method, path) => method === 'GET' && path.startsWith('/v2/updates'),
  page: (_method, path) => path.startsWith('/v2/updates/get-updates-page'),
  list: (method, path) => method === 'POST' && path.startsWith('/v2/updates') && !path.startsWith('/v2/updates/'),
};

/** The fault that interrupts the first read of each transport (the prune happens before the read that follows it). */
const interruptions: Record<RequestTransport, readonly Fault[]> = {
  websocket: [{ kind: 'ws-cut', afterFrames: 5 }],
  page: [{ kind: 'pass' }, { kind: 'cut', at: { fraction: 0.5 } }],
  list: [{ kind: 'pass' }, { kind: 'status', status: 503, retryInfo: '5 milliseconds' }],
};

describe.each(['websocket', 'page', 'list'] as const)('pruning over %s', (transport) => {
  let sandbox: Sandbox;
  let proxy: FaultProxy;
  let expected: number[];

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 50 });
    proxy = await startFaultProxy({ target: sandbox.url });
    expected = expectedOffsets(sandbox, view, { endInclusive: sandbox.ledgerEnd() });
    expect(expected.length).toBeGreaterThan(30);
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it('a resume position pruned during a reconnection is PrunedOffsetError at once, after exactly the updates before it; a pruned start too', async () => {
    const end = sandbox.ledgerEnd();
    const pruneAt = expected[20] as number;
    const before = interruptions[transport];
    proxy.schedule(
      (index) => {
        if (index < before.length) return before[index] as Fault;
        if (index === before.length) sandbox.prune(pruneAt); // while the client reconnects, before its request is served
        return { kind: 'pass' };
      },
      { match: readsOf[transport] },
    );
    const client = createLedgerClient({ baseUrl: proxy.url });
    const store = new MemoryCheckpointStore();
    const delivered: number[] = [];
    try {
      const error = await lastValueFrom(
        tailUpdates(client, { transport, beginExclusive: 0, endInclusive: end, updateFormat: viewFormat(view), pageLimit: 5, retry }).pipe(
          tap((e) => {
            if (!isOffsetCheckpoint(e)) delivered.push(elementOffset(e) as number);
          }),
          trackCheckpoint(store, { every: 1, everyMs: 0 }),
        ),
      ).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(PrunedOffsetError);
      expect((error as PrunedOffsetError).earliestOffset).toBe(pruneAt);
      expect(delivered.length).toBeGreaterThan(0);
      expect(delivered).toEqual(expected.slice(0, delivered.length)); // in order, nothing lost or repeated before the error
      expect(delivered.at(-1)).toBeLessThan(pruneAt);
      expect((await store.load())?.offset).toBeGreaterThanOrEqual(delivered.at(-1) as number); // the last delivered element (an update or a checkpoint)
      expect((await store.load())?.offset).toBeLessThan(pruneAt);
      const reads = proxy.log.filter((l) => l.index !== undefined);
      expect(reads.map((l) => l.fault)).toEqual([...before.map((f) => f.kind), 'pass']); // the pruned answer is not retried

      // a tail from a pruned start: the same error, nothing delivered, one request
      proxy.schedule([], { match: readsOf[transport] });
      const fromStart: number[] = [];
      const again = await lastValueFrom(
        tailUpdates(client, { transport, beginExclusive: 0, endInclusive: end, updateFormat: viewFormat(view), pageLimit: 5, retry }).pipe(tap((e) => fromStart.push(elementOffset(e) as number))),
      ).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(PrunedOffsetError);
      expect(again).toMatchObject({ earliestOffset: pruneAt, retryable: false });
      expect(fromStart).toEqual([]);
      expect(proxy.log.filter((l) => l.index !== undefined)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
