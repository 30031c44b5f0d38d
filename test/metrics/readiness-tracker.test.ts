import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/errors/index.js';
import { ReadinessTracker } from '../../src/metrics/index.js';
import type { TailStatus } from '../../src/operators/index.js';

const reset = new TransportError('CONNECTION_RESET', 'reset');
const resumed = (fromOffset: number, attempt = 0): TailStatus => ({ type: 'resumed', fromOffset, attempt, transport: 'http' });
const progress = (offset: number): TailStatus => ({
  type: 'progress',
  transport: 'http',
  delivered: { transaction: 1, reassignment: 0, topology: 0, checkpoint: 0, unknown: 0 },
  bytes: 0,
  offset,
  recordTime: undefined,
});
const ok: TailStatus = { type: 'request', transport: 'http', outcome: 'ok', elements: 1, limit: 1, durationMs: 1 };

function tracker() {
  let now = 0;
  const t = new ReadinessTracker({ stallAfterMs: 30_000, now: () => now });
  return { t, advance: (ms: number) => (now += ms) };
}

describe('ReadinessTracker', () => {
  it('is not ready while starting, as a standby, or while stopping', () => {
    const { t } = tracker();
    expect(t.check()).toMatchObject({ ready: false, reason: 'starting' });
    t.setPhase('standby');
    expect(t.check()).toMatchObject({ ready: false, reason: 'standby' });
    t.onStatus(resumed(5)); // a standby's read does not make it ready by itself
    expect(t.check()).toMatchObject({ ready: false, reason: 'standby' });
    t.setPhase('running');
    expect(t.check()).toMatchObject({ ready: true });
    t.setPhase('stopping');
    expect(t.check()).toMatchObject({ ready: false, reason: 'stopping' });
  });

  it('is ready once the read started: caught up, or progressing while behind', () => {
    const { t, advance } = tracker();
    t.onStatus(resumed(10));
    expect(t.check()).toMatchObject({ ready: true, reason: 'caught-up', position: 10 });
    t.observeLedgerEnd(50);
    expect(t.check()).toMatchObject({ ready: true, reason: 'progressing', ledgerEnd: 50 });
    advance(20_000);
    t.onStatus(progress(30));
    t.observeLedgerEnd(60);
    advance(20_000);
    expect(t.check()).toMatchObject({ ready: true, reason: 'progressing', position: 30, idleSeconds: 20 });
    t.onStatus(progress(60));
    expect(t.check()).toMatchObject({ ready: true, reason: 'caught-up' });
  });

  it('is stalled when the position has not moved for the stall time while the ledger end moved', () => {
    const { t, advance } = tracker();
    t.onStatus(resumed(10));
    t.observeLedgerEnd(40);
    advance(29_000);
    t.observeLedgerEnd(45);
    expect(t.check()).toMatchObject({ ready: true, reason: 'progressing' });
    advance(1_000);
    expect(t.check()).toMatchObject({ ready: false, reason: 'stalled', position: 10, ledgerEnd: 45, idleSeconds: 30 });
    t.onStatus(progress(11));
    expect(t.check()).toMatchObject({ ready: true, reason: 'progressing' });
  });

  it('is not stalled on a quiet ledger: behind a ledger end that does not move, or caught up', () => {
    const { t, advance } = tracker();
    t.onStatus(resumed(10));
    t.observeLedgerEnd(12); // known when the position last moved, and still the same
    advance(120_000);
    expect(t.check()).toMatchObject({ ready: true, reason: 'progressing', idleSeconds: 120 });
    const q = tracker();
    q.t.onStatus(resumed(10));
    q.t.observeLedgerEnd(10);
    q.advance(120_000);
    q.t.observeLedgerEnd(10);
    expect(q.t.check()).toMatchObject({ ready: true, reason: 'caught-up' });
  });

  it('stays ready through a retried hiccup, and is not ready from the third failure in a row until a request succeeds', () => {
    const { t } = tracker();
    t.onStatus(resumed(0));
    t.onStatus({ type: 'retrying', attempt: 1, delayMs: 200, error: reset });
    t.onStatus({ type: 'retrying', attempt: 2, delayMs: 400, error: reset });
    expect(t.check()).toMatchObject({ ready: true, failedAttempts: 2 });
    t.onStatus({ type: 'retrying', attempt: 3, delayMs: 800, error: reset });
    expect(t.check()).toMatchObject({ ready: false, reason: 'retrying', failedAttempts: 3 });
    t.onStatus(resumed(0, 3));
    expect(t.check()).toMatchObject({ ready: false, reason: 'retrying' });
    t.onStatus(ok);
    expect(t.check()).toMatchObject({ ready: true, failedAttempts: 0 });
  });

  it('takes the ledger end from the statuses of the read too', () => {
    const { t } = tracker();
    t.onStatus(resumed(3));
    t.onStatus({ type: 'ledger-end', offset: 9 });
    expect(t.check()).toMatchObject({ ledgerEnd: 9, reason: 'progressing' });
    t.onStatus({ type: 'caught-up', offset: 12 });
    expect(t.check()).toMatchObject({ ledgerEnd: 12 });
  });

  it('reports idleSeconds to the millisecond, not as a float of the raw clock', () => {
    const { t, advance } = tracker();
    t.onStatus(resumed(1));
    advance(241.22062000000005);
    expect(t.check().idleSeconds).toBe(0.241);
    advance(0.5);
    expect(t.check().idleSeconds).toBe(0.242);
  });

  it('rejects a stall time that is not positive', () => {
    expect(() => new ReadinessTracker({ stallAfterMs: 0 })).toThrow(/stallAfterMs/);
  });
});
