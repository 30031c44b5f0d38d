import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/error-codes.js';
import { LedgerRxError } from '../../src/errors/ledger-rx-error.js';
import { jetStreamMayRecover } from '../../src/sinks/jetstream/jetstream-may-recover.js';
import { retryStartUp, type StartUpWait } from '../../src/sinks/jetstream/retry-start-up.js';
import { VirtualClock } from '../support/virtual-clock.js';

const timeout = () => Object.assign(new Error('timeout'), { name: 'TimeoutError' });
const refused = () => Object.assign(new Error('connection refused'), { name: 'ConnectionError' });

/** Settles `promise` into an inspectable box without an unhandled rejection. */
function track<T>(promise: Promise<T>): { done: boolean; value?: T; error?: unknown } {
  const box: { done: boolean; value?: T; error?: unknown } = { done: false };
  promise.then(
    (value) => Object.assign(box, { done: true, value }),
    (error: unknown) => Object.assign(box, { done: true, error }),
  );
  return box;
}

describe('retryStartUp (virtual time)', () => {
  it('tries again with a doubling backoff capped at 2 s while the failure may pass, reporting each wait, and resolves with the first success', async () => {
    const clock = new VirtualClock();
    const waits: StartUpWait[] = [];
    let calls = 0;
    const result = track(
      retryStartUp('read stream \'S\'', async () => {
        calls++;
        if (clock.now() < 9_000) throw calls % 2 ? timeout() : refused();
        return 'info';
      }, { retryForMs: 30_000, scheduler: clock.scheduler, onWaiting: (w) => waits.push(w) }),
    );
    await clock.advance(8_999);
    expect(result.done).toBe(false);
    await clock.advance(3_000);
    expect(result).toEqual({ done: true, value: 'info' });
    expect(waits.map((w) => w.delayMs)).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000, 2_000]);
    expect(waits.map((w) => w.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(waits.every((w) => w.step === "read stream 'S'")).toBe(true);
    expect(calls).toBe(9); // at 0, 100, 300, 700, 1 500, 3 100, 5 100, 7 100 and 9 100 ms
  });

  it('fails with SINK_FAILED once the step failed for retryForMs, naming the step, the attempts, the time and the last error', async () => {
    const clock = new VirtualClock();
    const result = track(retryStartUp('connect to nats://x:1', async () => Promise.reject(refused()), { retryForMs: 5_000, scheduler: clock.scheduler, where: 'nats://x:1' }));
    await clock.advance(4_900);
    expect(result.done).toBe(false);
    await clock.advance(200);
    expect(result.done).toBe(true);
    expect(result.error).toBeInstanceOf(LedgerRxError);
    expect(result.error).toMatchObject({ code: ErrorCodes.SINK_FAILED });
    expect((result.error as Error).message).toMatch(/^JetStream at nats:\/\/x:1 was not ready after 5000 ms: connect to nats:\/\/x:1 failed 7 times \(last: connection refused\)/);
  });

  it('rethrows at once a failure that cannot pass, and stops waiting as soon as its signal aborts', async () => {
    const clock = new VirtualClock();
    const denied = Object.assign(new Error('authorization violation'), { name: 'PermissionViolationError' });
    const refusedForGood = track(retryStartUp('read stream', async () => Promise.reject(denied), { retryForMs: 5_000, scheduler: clock.scheduler }));
    await clock.advance(0);
    expect(refusedForGood).toEqual({ done: true, error: denied });

    const stop = new AbortController();
    const stopped = track(retryStartUp('read stream', async () => Promise.reject(timeout()), { retryForMs: 60_000, scheduler: clock.scheduler, signal: stop.signal }));
    await clock.advance(1_000);
    expect(stopped.done).toBe(false);
    stop.abort(new Error('stop'));
    await clock.advance(0);
    expect(stopped).toMatchObject({ done: true, error: { message: 'stop' } });
    expect(clock.scheduler.actions).toHaveLength(0);
  });

  it('counts the refusals of a cluster whose peers are not all up as passing only at start-up', () => {
    const jsError = (code: number, status: number, description: string) => Object.assign(new Error(description), { name: 'JetStreamApiError', code, status });
    const noPeers = jsError(10005, 400, 'no suitable peers for placement');
    expect(jetStreamMayRecover(noPeers, true)).toBe(true);
    expect(jetStreamMayRecover(noPeers)).toBe(false);
    expect(jetStreamMayRecover(jsError(10008, 503, 'JetStream system temporarily unavailable'))).toBe(true);
    expect(jetStreamMayRecover(jsError(10071, 400, 'wrong last sequence: 4'))).toBe(false);
    expect(jetStreamMayRecover(new LedgerRxError(ErrorCodes.SINK_FAILED, 'timeout'))).toBe(false);
  });
});
