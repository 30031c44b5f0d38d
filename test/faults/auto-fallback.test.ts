import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { activeContractsSnapshot, readDescending, tailUpdates, type TailStatus } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { isOffsetCheckpoint } from '../../src/updates/index.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { diff, elementOffset, expectedOffsets, firstDisorder, viewFormat, type TransactionView } from '../support/ledger-oracle.js';

/**
 * `'auto'` that always finishes (docs/transports.md, docs/network-paths.md): through a proxy that swallows
 * WebSocket upgrades, or answers them with a bare 502, every `'auto'` read falls back to HTTP at once and
 * delivers exactly what a direct read delivers — each offset once, in order — with a `transport-selected`
 * status that says why; the client's next read skips the WebSocket within the cool-off.
 */

const view: TransactionView = { parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' };
const retry = { initialDelayMs: 1, maxDelayMs: 10, jitter: 0, maxAttempts: 5 };
const upgrades = (proxy: FaultProxy) => proxy.log.filter((r) => r.upgrade === true);
/** A snapshot entry without its continuation token, which depends on the transport that read it. */
const entry = ({ streamContinuationToken: _token, ...rest }: { streamContinuationToken?: unknown }) => rest;
const selected = (statuses: TailStatus[]) => statuses.filter((s) => s.type === 'transport-selected');

describe("'auto' through a proxy that does not carry WebSockets", () => {
  let sandbox: Sandbox;
  let proxy: FaultProxy;
  let expected: number[];
  const clients: LedgerClient[] = [];
  const clientThroughProxy = () => {
    // a short handshake timeout keeps the test quick; it is a bound, nothing is timed
    const client = createLedgerClient({ baseUrl: proxy.url, webSocketHandshakeTimeoutMs: 200 });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 70 });
    proxy = await startFaultProxy({ target: sandbox.url });
    expected = expectedOffsets(sandbox, view, { endInclusive: sandbox.ledgerEnd() });
    expect(expected.length).toBeGreaterThan(30);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it('a swallowed upgrade: tailUpdates reaches the end over HTTP with every offset once, and says why; the next read of the client skips the WebSocket', async () => {
    proxy.schedule(() => ({ kind: 'swallow-upgrade' }));
    const client = clientThroughProxy();
    const statuses: TailStatus[] = [];
    const end = sandbox.ledgerEnd();
    const got = await lastValueFrom(
      tailUpdates(client, { transport: 'auto', beginExclusive: 0, endInclusive: end, updateFormat: viewFormat(view), pageLimit: 7, retry, onStatus: (s) => statuses.push(s) }).pipe(toArray()),
    );
    const offsets = got.filter((e) => !isOffsetCheckpoint(e)).map((e) => elementOffset(e) as number);
    expect(firstDisorder(offsets)).toBe(-1);
    expect(diff(expected, offsets)).toEqual({ lost: [], extra: [] });
    expect(offsets).toEqual(expected);
    expect(selected(statuses)).toEqual([
      { type: 'transport-selected', transport: 'websocket', requested: 'auto' },
      expect.objectContaining({ type: 'transport-selected', transport: 'page', requested: 'auto', reason: 'WebSocket handshake got no answer within 200 ms', refused: expect.objectContaining({ transport: 'websocket' }) }),
    ]);
    expect((selected(statuses)[1] as { refused: { error: unknown } }).refused.error).toMatchObject({ name: 'TransportError', code: 'HANDSHAKE_TIMEOUT' });
    // the fallback came at once: no retry of the WebSocket, one upgrade swallowed
    expect(statuses.some((s) => s.type === 'retrying')).toBe(false);
    expect(upgrades(proxy)).toHaveLength(1);

    // the same client again, within the cool-off: straight to HTTP, no upgrade tried
    const later: TailStatus[] = [];
    const newest = await lastValueFrom(readDescending(client, { updateFormat: viewFormat(view), endInclusive: end, pageLimit: 9, retry, onStatus: (s) => later.push(s) }).pipe(toArray()));
    expect(newest.map((e) => elementOffset(e))).toEqual([...expected].reverse());
    expect(selected(later)).toEqual([
      { type: 'transport-selected', transport: 'page', requested: 'auto', reason: expect.stringMatching(/^websocket skipped: WebSocket handshake got no answer within 200 ms \d+ ms ago \(tried again 300000 ms after that\)$/) },
    ]);
    expect(upgrades(proxy)).toHaveLength(1);
  });

  it('an upgrade answered with a bare 502: readDescending and the active-contracts snapshot fall back at once, and read what a direct read reads', async () => {
    proxy.schedule(() => ({ kind: 'upgrade-502' }));
    const end = sandbox.ledgerEnd();
    const statuses: TailStatus[] = [];
    const newest = await lastValueFrom(readDescending(clientThroughProxy(), { updateFormat: viewFormat(view), endInclusive: end, pageLimit: 9, retry, onStatus: (s) => statuses.push(s) }).pipe(toArray()));
    expect(newest.map((e) => elementOffset(e))).toEqual([...expected].reverse());
    expect(selected(statuses)[1]).toMatchObject({ transport: 'page', reason: 'upgrade answered 502 by a proxy (no Canton body)', refused: { transport: 'websocket', error: { name: 'LedgerApiError', status: 502 } } });

    const direct = createLedgerClient({ baseUrl: sandbox.url });
    clients.push(direct);
    const eventFormat = { filtersByParty: { [sandbox.partyId('Alice')]: { cumulative: [] } }, verbose: false };
    const want = await lastValueFrom(activeContractsSnapshot(direct, { eventFormat, activeAtOffset: end }, { transport: 'list' }).pipe(toArray()));
    expect(want.length).toBeGreaterThan(0);
    const snapshotStatuses: TailStatus[] = [];
    const got = await lastValueFrom(activeContractsSnapshot(clientThroughProxy(), { eventFormat, activeAtOffset: end }, { retry, onStatus: (s) => snapshotStatuses.push(s) }).pipe(toArray()));
    expect(got.map(entry)).toEqual(want.map(entry));
    expect(selected(snapshotStatuses)[1]).toMatchObject({ transport: 'page', reason: 'upgrade answered 502 by a proxy (no Canton body)' });
    expect(upgrades(proxy)).toHaveLength(2);
  });

  it('on a 3.4 participant (no get-updates-page) the chain is websocket → list, as its version says', async () => {
    const old = await startSandbox({ seed: 70, apiVersion: '3.4' });
    const oldProxy = await startFaultProxy({ target: old.url });
    try {
      oldProxy.schedule(() => ({ kind: 'swallow-upgrade' }));
      const client = createLedgerClient({ baseUrl: oldProxy.url, webSocketHandshakeTimeoutMs: 200 });
      clients.push(client);
      const end = old.ledgerEnd();
      const want = expectedOffsets(old, view, { endInclusive: end });
      const statuses: TailStatus[] = [];
      const got = await lastValueFrom(tailUpdates(client, { beginExclusive: 0, endInclusive: end, updateFormat: viewFormat(view), pageLimit: 7, retry, onStatus: (s) => statuses.push(s) }).pipe(toArray()));
      expect(got.filter((e) => !isOffsetCheckpoint(e)).map((e) => elementOffset(e))).toEqual(want);
      expect(selected(statuses)).toEqual([
        { type: 'transport-selected', transport: 'websocket', requested: 'auto', reason: expect.stringMatching(/^page skipped: participant 3\.4\.\d+\S* has no POST \/v2\/updates\/get-updates-page$/) },
        expect.objectContaining({ type: 'transport-selected', transport: 'list', reason: 'WebSocket handshake got no answer within 200 ms' }),
      ]);
      expect(oldProxy.log.some((r) => r.path.startsWith('/v2/updates/get-updates-page'))).toBe(false);
      expect(upgrades(oldProxy)).toHaveLength(1);
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await oldProxy.close();
      await old.close();
    }
  });
});
