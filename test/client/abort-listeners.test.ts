import { getEventListeners } from 'node:events';
import { lastValueFrom, take, toArray, type Subscription } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

/**
 * A long tail makes millions of requests with the same long-lived signals (the caller's, and the client's own
 * signal that fires when it is closed): every abort listener a request adds must go when the request ends, or
 * memory grows with each request. The client raises the listener limit of its own signal (many calls in flight
 * are normal use), so Node's MaxListenersExceededWarning would not show a leak there: these tests count the
 * listeners themselves.
 */
describe('the client releases its abort listeners when a call ends', () => {
  let sandbox: Sandbox;
  let client: LedgerClient;
  const updateFormat = { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };

  /** How many `abort` listeners were added to each AbortSignal while the spy was on (the client's own signals included). */
  let added: Map<AbortSignal, number>;
  beforeEach(() => {
    added = new Map();
    const original = EventTarget.prototype.addEventListener;
    vi.spyOn(EventTarget.prototype, 'addEventListener').mockImplementation(function (this: EventTarget, type, listener, options) {
      if (this instanceof AbortSignal && type === 'abort') added.set(this, (added.get(this) ?? 0) + 1);
      return original.call(this, type, listener, options);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  /** The signals that got an `abort` listener from at least `calls` calls: the long-lived ones, not a request's own. */
  const longLived = (calls: number) => [...added].filter(([, n]) => n >= calls).map(([signal]) => signal);
  const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 10 });
    client = createLedgerClient({ baseUrl: sandbox.url });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it("one listener per call in flight on the caller's signal, none once each call ended", async () => {
    const signal = new AbortController().signal;
    // open-ended list reads with a long idle timeout: the participant holds them until they are cancelled
    const held = { beginExclusive: sandbox.ledgerEnd(), updateFormat };
    const subscriptions: Subscription[] = Array.from({ length: 8 }, () =>
      client.updates(held, { streamIdleTimeoutMs: 600_000, signal }).subscribe({ error: () => undefined }),
    );
    await vi.waitFor(() => expect(listeners(signal)).toBe(8));
    for (const [i, subscription] of subscriptions.entries()) {
      subscription.unsubscribe();
      await vi.waitFor(() => expect(listeners(signal)).toBe(8 - i - 1));
    }
    expect(listeners(signal)).toBe(0);
  });

  it('after unary calls, completed and partly read update streams and failed calls: no listener left on any long-lived signal', async () => {
    const signal = new AbortController().signal;
    const request = { beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat };
    for (let i = 0; i < 20; i++) await client.ledgerEnd({ signal });
    for (let i = 0; i < 10; i++) await lastValueFrom(client.updates(request, { limit: 100, signal }).pipe(toArray()));
    for (let i = 0; i < 10; i++) await lastValueFrom(client.updates(request, { limit: 100, signal }).pipe(take(1)));
    for (let i = 0; i < 5; i++) await client.getUser('nobody', { signal }).catch(() => undefined);
    for (let i = 0; i < 10; i++) await lastValueFrom(client.updates(request, { transport: 'websocket' }).pipe(toArray()));
    for (let i = 0; i < 10; i++) await lastValueFrom(client.updates(request, { transport: 'websocket' }).pipe(take(1)));

    // the caller's signal and the client's own (closing) signals: each saw a listener from every call
    const signals = longLived(10);
    expect(signals).toContain(signal);
    expect(signals.length).toBeGreaterThanOrEqual(2);
    await vi.waitFor(() => expect(signals.map(listeners)).toEqual(signals.map(() => 0)));
  });

  it('60 calls in flight at once on every transport: all answered, and no listener left afterwards', async () => {
    const end = sandbox.ledgerEnd();
    const request = { beginExclusive: 0, endInclusive: end, updateFormat };
    const unary = Array.from({ length: 30 }, () => client.ledgerEnd());
    const lists = Array.from({ length: 15 }, () => lastValueFrom(client.updates(request, { limit: 100 }).pipe(toArray())));
    const sockets = Array.from({ length: 15 }, () => lastValueFrom(client.updates(request, { transport: 'websocket' }).pipe(toArray())));
    const answers = await Promise.all([...unary, ...lists, ...sockets]);
    expect(answers).toHaveLength(60);
    for (const list of answers.slice(30)) expect((list as unknown[]).length).toBeGreaterThan(0);

    const signals = longLived(15);
    expect(signals.length).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => expect(signals.map(listeners)).toEqual(signals.map(() => 0)));
  });
});
