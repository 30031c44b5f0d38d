import { describe, expect, it } from 'vitest';
import { ledgerBounds } from '../../src/cli/source/ledger-bounds.js';
import { retryStartupCall } from '../../src/cli/source/retry-startup-call.js';
import { StopRequested } from '../../src/cli/process/stop-requested.js';
import { LedgerApiError } from '../../src/errors/ledger-api-error.js';
import { RetriesExhaustedError } from '../../src/errors/retries-exhausted-error.js';
import { TransportError } from '../../src/errors/transport-error.js';
import type { TailStatus } from '../../src/operators/tail-status.js';
import { ParticipantUnreachableError } from '../../src/cli/source/participant-unreachable-error.js';
import type { FirstContact } from '../../src/cli/source/retry-startup-call.js';
import { describeError } from '../../src/cli/process/describe-error.js';
import { exitCodeFor } from '../../src/cli/process/exit-code-for.js';

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

describe('retryStartupCall: fail fast on a wrong address', () => {
  const osError = (code: string) => new TransportError('CONNECTION_FAILED', `GET /v2/state/ledger-end: could not connect (${code})`, { cause: Object.assign(new Error(code), { code }) });
  /** A first contact on a clock that moves 1 s per request, so the bound is reached after a fixed number of requests. */
  function contact(): FirstContact & { tick: () => void } {
    let t = 0;
    return { url: 'http://127.0.0.1:1', giveUpMs: 5_000, reached: false, now: () => t, tick: () => (t += 1_000) };
  }

  it('gives up after the bound with one line naming the address, the reason and the flag; no warning per attempt', async () => {
    for (const [code, reason] of [['ECONNREFUSED', 'connection refused'], ['ENOTFOUND', 'host not found'], ['EAI_AGAIN', 'host not found']] as const) {
      const first = contact();
      const statuses: TailStatus[] = [];
      let calls = 0;
      const failing = retryStartupCall(
        async () => {
          calls++;
          first.tick();
          throw osError(code);
        },
        { retry: { ...fast, maxAttempts: 2 }, onStatus: (s) => statuses.push(s), firstContact: first },
      );
      const error = await failing.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParticipantUnreachableError);
      expect(calls).toBe(5); // more than maxAttempts: the bound is time, not attempts
      expect(statuses).toEqual([]);
      const text = describeError(error);
      expect(text.split('\n')).toHaveLength(1);
      expect(text).toContain(`cannot reach the participant at http://127.0.0.1:1: ${reason} (5 attempts in 5.0 s)`);
      expect(text).toContain('--wait-for-participant');
      expect(exitCodeFor(error)).toBe(4);
    }
  });

  it('once the participant answered, and for other failures, retries as before (a running daemon keeps retrying)', async () => {
    const first = contact();
    await retryStartupCall(async () => 'up', { firstContact: first });
    expect(first.reached).toBe(true);
    const statuses: TailStatus[] = [];
    const later = retryStartupCall(
      async () => {
        first.tick();
        throw osError('ECONNREFUSED');
      },
      { retry: { ...fast, maxAttempts: 2 }, onStatus: (s) => statuses.push(s), firstContact: first },
    );
    await expect(later).rejects.toBeInstanceOf(RetriesExhaustedError);
    expect(statuses.map((s) => s.type)).toEqual(['retrying', 'retrying']);

    const reset = contact();
    const resets = retryStartupCall(
      async () => {
        reset.tick();
        throw new TransportError('CONNECTION_RESET', 'the connection broke');
      },
      { retry: { ...fast, maxAttempts: 7 }, firstContact: reset },
    );
    await expect(resets).rejects.toBeInstanceOf(RetriesExhaustedError);
  });
});
