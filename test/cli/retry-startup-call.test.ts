import { describe, expect, it } from 'vitest';
import { ledgerBounds } from '../../src/cli/source/ledger-bounds.js';
import { retryStartupCall } from '../../src/cli/source/retry-startup-call.js';
import { StopRequested } from '../../src/cli/process/stop-requested.js';
import { LedgerApiError } from '../../src/errors/ledger-api-error.js';
import { RetriesExhaustedError } from '../../src/errors/retries-exhausted-error.js';
import { TransportError } from '../../src/errors/transport-error.js';
import type { TailStatus } from '../../src/operators/tail-status.js';

const fast = { initialDelayMs: 1, maxDelayMs: 2, jitter: 0 };
const refused = () => new TransportError('CONNECTION_FAILED', 'connect ECONNREFUSED');

describe('retryStartupCall', () => {
  it('retries retryable failures with the read policy and reports each retry', async () => {
    let calls = 0;
    const statuses: TailStatus[] = [];
    const value = await retryStartupCall(
      async () => {
        if (++calls < 3) throw refused();
        return 'ok';
      },
      { retry: { ...fast, maxAttempts: 5 }, onStatus: (s) => statuses.push(s) },
    );
    expect(value).toBe('ok');
    expect(calls).toBe(3);
    expect(statuses.map((s) => s.type)).toEqual(['retrying', 'retrying']);
  });

  it('gives up with RetriesExhaustedError after maxAttempts retries (exit 4)', async () => {
    let calls = 0;
    const failing = retryStartupCall(
      async () => {
        calls++;
        throw refused();
      },
      { retry: { ...fast, maxAttempts: 2 } },
    );
    await expect(failing).rejects.toBeInstanceOf(RetriesExhaustedError);
    expect(calls).toBe(3);
  });

  it('does not retry a non-retryable server error', async () => {
    let calls = 0;
    const denied = new LedgerApiError({
      status: 403,
      body: { code: 'NA', cause: 'denied', correlationId: null, traceId: null, context: {}, resources: [], errorCategory: -1, grpcCodeValue: 7, retryInfo: null, definiteAnswer: null },
    });
    await expect(
      retryStartupCall(
        async () => {
          calls++;
          throw denied;
        },
        { retry: { ...fast, maxAttempts: 5 } },
      ),
    ).rejects.toBe(denied);
    expect(calls).toBe(1);
  });

  it('a stop aborts the call in flight and the wait between attempts with StopRequested', async () => {
    const controller = new AbortController();
    let calls = 0;
    const started = Date.now();
    const running = retryStartupCall(
      async () => {
        calls++;
        throw refused();
      },
      { retry: { initialDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 5 }, signal: controller.signal },
    );
    await new Promise((r) => setTimeout(r, 20));
    controller.abort(new StopRequested());
    await expect(running).rejects.toBeInstanceOf(StopRequested);
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('ledgerBounds', () => {
  it('reads the ledger end and the pruning boundary once each, 0 when absent', async () => {
    let ends = 0;
    let pruned = 0;
    const bounds = ledgerBounds(
      {
        ledgerEnd: async () => ({ offset: 40 + ends++ }),
        latestPrunedOffsets: async () => {
          pruned++;
          return { participantPrunedUpToInclusive: null, allDivulgedContractsPrunedUpToInclusive: null };
        },
      },
      {},
    );
    expect(await bounds.ledgerEnd()).toBe(40);
    expect(await bounds.ledgerEnd()).toBe(40);
    expect(await bounds.prunedUpTo()).toBe(0);
    await bounds.prunedUpTo();
    expect([ends, pruned]).toEqual([1, 1]);
  });
});
