import { getEventListeners } from 'node:events';
import { lastValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

/**
 * A long tail makes millions of requests with the same long-lived signals (the caller's, the client's):
 * every listener a request adds must go when the request ends, or memory grows with each request.
 */
describe('the client releases its abort listeners when a call ends', () => {
  let sandbox: Sandbox;
  let client: LedgerClient;
  const updateFormat = { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 10 });
    client = createLedgerClient({ baseUrl: sandbox.url });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it('after unary calls, completed and partly read update streams, and failed calls', async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    for (let i = 0; i < 20; i++) await client.ledgerEnd({ signal });
    const request = { beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat };
    for (let i = 0; i < 10; i++) await lastValueFrom(client.updates(request, { limit: 100, signal }).pipe(toArray()));
    for (let i = 0; i < 10; i++) await lastValueFrom(client.updates(request, { limit: 100, signal }).pipe(take(1)));
    for (let i = 0; i < 5; i++) await client.getUser('nobody', { signal }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('many calls in flight at once are normal use: no MaxListenersExceededWarning on the client\'s own signals', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void (w.name === 'MaxListenersExceededWarning' && warnings.push(w));
    process.on('warning', onWarning);
    try {
      const end = sandbox.ledgerEnd();
      const request = { beginExclusive: 0, endInclusive: end, updateFormat };
      const unary = Array.from({ length: 30 }, () => client.ledgerEnd());
      const lists = Array.from({ length: 15 }, () => lastValueFrom(client.updates(request, { limit: 100 }).pipe(toArray())));
      const sockets = Array.from({ length: 15 }, () => lastValueFrom(client.streamUpdates(request).pipe(toArray())));
      const answers = await Promise.all([...unary, ...lists, ...sockets]);
      expect(answers).toHaveLength(60);
      for (const list of answers.slice(30)) expect((list as unknown[]).length).toBeGreaterThan(0);
      // warnings are emitted on the next tick
      await new Promise((r) => setTimeout(r, 20));
      expect(warnings.map((w) => w.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
