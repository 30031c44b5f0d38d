import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, newCommandId, type LedgerClient } from '../../src/client/index.js';
import { LedgerApiError, TransportError } from '../../src/errors/index.js';
import { updateFormat } from '../../src/filters/index.js';
import { readDescending, tailUpdates, type TailStatus } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { elementText, updateOffset } from '../../src/updates/index.js';

let sandbox: Sandbox;
let client: LedgerClient;
let tokens = 0;
const format = updateFormat().transactions((t) => t.anyParty()).build();

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 120, authSecret: 'stream-secret', checkpointIntervalMs: 100, idleCheckpointIntervalMs: 200, userRightsCheckIntervalMs: 100 });
  const admin = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('participant_admin') });
  const rights = [{ kind: { CanReadAsAnyParty: { value: {} } } }, { kind: { CanActAs: { value: { party: sandbox.partyId('Alice') } } } }];
  await admin.createUser({ user: { id: 'streamer', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights });
  await admin.close();
  client = createLedgerClient({ baseUrl: sandbox.url, token: () => (tokens++, sandbox.token('streamer')) });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

/**
 * Polls `condition` every 10 ms until it holds. No deadline of its own: the test's timeout ends the wait
 * (vitest aborts the test context's `signal`), so a condition that never comes fails the test rather than
 * falling through to the assertions.
 */
async function waitFor(condition: () => boolean, what: string, signal: AbortSignal): Promise<void> {
  while (!condition()) {
    if (signal.aborted) throw new Error(`still waiting for ${what} when the test ended`, { cause: signal.reason });
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function submitOne(): Promise<void> {
  const alice = sandbox.partyId('Alice');
  await client.submit({
    commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'CHF', amount: '1.0000000000', observers: [] } } }],
    commandId: newCommandId('ws'),
    actAs: [alice],
  });
}

describe("updates over 'websocket' against the sandbox", () => {
  it('reads a bounded range with the same elements, byte for byte, as the HTTP list, and completes', async () => {
    const end = sandbox.ledgerEnd();
    const before = tokens;
    const streamed = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, updateFormat: format }, { transport: 'websocket', rawText: true }).pipe(toArray()));
    const listed = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, updateFormat: format }, { rawText: true, limit: 200 }).pipe(toArray()));
    expect(streamed.length).toBeGreaterThan(100);
    expect(streamed.map((e) => elementText(e))).toEqual(listed.map((e) => elementText(e)));
    expect(tokens - before).toBe(2); // the provider is asked once per connection and once per request
  });

  it('stays open for live updates and closes the socket when unsubscribed', async ({ signal }) => {
    await waitFor(() => sandbox.webSocketSessions().length === 0, 'the sockets of the test before to close', signal);
    const start = sandbox.ledgerEnd();
    const got: number[] = [];
    const subscription = client.updates({ beginExclusive: start, updateFormat: format }, { transport: 'websocket' }).subscribe((e) => got.push(updateOffset(e) as number));
    for (let i = 0; i < 3; i++) await submitOne();
    const submitted = sandbox.updates({ beginExclusive: start }).filter((u) => u.kind === 'Transaction').map((u) => u.offset);
    await waitFor(() => submitted.every((o) => got.includes(o)), 'the three submissions on the stream', signal);
    for (let i = 1; i < got.length; i++) expect(got[i]).toBeGreaterThanOrEqual(got[i - 1] as number);
    expect(sandbox.webSocketSessions().filter((s) => s.path === '/v2/updates')).toHaveLength(1);
    subscription.unsubscribe();
    await waitFor(() => sandbox.webSocketSessions().length === 0, 'the socket to close', signal);
  });

  it('maps the error frame of a rejected request to LedgerApiError, and server faults to retryable TransportErrors', async () => {
    const after = sandbox.ledgerEnd() + 1000;
    const rejected = await lastValueFrom(client.updates({ beginExclusive: after, updateFormat: format }, { transport: 'websocket' })).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(LedgerApiError);
    expect(rejected).toMatchObject({ code: 'OFFSET_AFTER_LEDGER_END', status: 400, retryable: true });
    for (const [kind, closeCode] of [['drop', 1006], ['close-1011', 1011], ['truncate', 1006]] as const) {
      sandbox.injectFault({ kind, afterElements: 5, transport: 'websocket' });
      const received: number[] = [];
      const error = await lastValueFrom(client.updates({ beginExclusive: 0, updateFormat: format }, { transport: 'websocket' }).pipe(tap((e) => received.push(updateOffset(e) as number)))).catch((e: unknown) => e);
      expect(error, kind).toBeInstanceOf(TransportError);
      expect(error, kind).toMatchObject({ closeCode, retryable: true });
      expect(received, kind).toHaveLength(5);
    }
  });
});

describe('updatesPage against the sandbox', () => {
  it('pages through the ledger with its tokens (ascending and descending), byte for byte the list, and refuses a token of another request', async () => {
    const end = sandbox.ledgerEnd();
    const listed = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, updateFormat: format }, { rawText: true, limit: 200 }).pipe(toArray()));
    const collect = async (descendingOrder: boolean) => {
      const texts: (string | undefined)[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = await client.updatesPage({ beginOffsetExclusive: 0, endOffsetInclusive: end, maxPageSize: 50, updateFormat: format, descendingOrder, ...(pageToken ? { pageToken } : {}) }, { rawText: true });
        texts.push(...page.updates.map((e) => elementText(e)));
        pageToken = page.nextPageToken;
        pages++;
      } while (pageToken !== undefined);
      return { texts, pages };
    };
    const ascending = await collect(false);
    expect(ascending.texts).toEqual(listed.map((e) => elementText(e)));
    expect(ascending.pages).toBe(Math.ceil(listed.length / 50) + (listed.length % 50 === 0 ? 1 : 0));
    expect((await collect(true)).texts).toEqual(listed.map((e) => elementText(e)).reverse());
    // an ascending read without an end always has a token: the way to tail
    const open = await client.updatesPage({ beginOffsetExclusive: end, updateFormat: format });
    expect(open).toMatchObject({ updates: [], nextPageToken: expect.any(String) });
    const first = await client.updatesPage({ beginOffsetExclusive: 0, maxPageSize: 10, updateFormat: format });
    const wrong = await client.updatesPage({ beginOffsetExclusive: 0, maxPageSize: 20, updateFormat: format, pageToken: first.nextPageToken as string }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(LedgerApiError);
    expect(wrong).toMatchObject({ code: 'INVALID_UPDATES_PAGE_TOKEN', status: 400, retryable: false });
  });
});

describe('tailUpdates and readDescending over each transport against the sandbox', () => {
  it.for(['websocket', 'page', 'list'] as const)('%s: a bounded tail, a live tail and a descending read deliver exactly the ledger', async (transport, { signal }) => {
    const end = sandbox.ledgerEnd();
    const expected = await lastValueFrom(client.updates({ beginExclusive: 0, endInclusive: end, updateFormat: format }, { limit: 200 }).pipe(toArray()));
    const offsets = expected.map((e) => updateOffset(e) as number);
    const statuses: TailStatus[] = [];
    const bounded = await lastValueFrom(tailUpdates(client, { updateFormat: format, endInclusive: end, transport, pageLimit: 40, onStatus: (s) => statuses.push(s) }).pipe(toArray()));
    expect(bounded.map(updateOffset)).toEqual(offsets);
    expect(statuses.filter((s) => s.type === 'transport-selected')).toEqual([{ type: 'transport-selected', transport, requested: transport }]);
    expect(statuses.filter((s) => s.type === 'request').every((s) => s.type === 'request' && s.transport === transport)).toBe(true);
    const descending = await lastValueFrom(readDescending(client, { updateFormat: format, endInclusive: end, transport, pageLimit: 40 }).pipe(toArray()));
    expect(descending.map(updateOffset)).toEqual([...offsets].reverse());
    // live: from the end, three submissions arrive, and nothing else but checkpoints
    const live: number[] = [];
    const subscription = tailUpdates(client, { updateFormat: format, beginExclusive: end, transport, pollIntervalMs: 20 }).subscribe((e) => {
      if (!('OffsetCheckpoint' in e.update)) live.push(updateOffset(e) as number);
    });
    for (let i = 0; i < 3; i++) await submitOne();
    await waitFor(() => live.length >= 3, 'the three submissions on the live tail', signal);
    subscription.unsubscribe();
    expect(live).toEqual(sandbox.updates({ beginExclusive: end }).filter((u) => u.kind === 'Transaction').map((u) => u.offset));
  });
});

describe('streams that outlive their token', () => {
  it('reconnects before a known exp, and resumes at once (fresh token, no backoff) when the participant ends the stream with ACCESS_TOKEN_EXPIRED', async ({ signal }) => {
    for (const [margin, lifetimeSeconds] of [[1_000, 2], [30_000, 1]] as const) {
      // a 2 s token with a margin of 1 s: a planned reconnection halfway; a 1 s token is too short to plan
      // (less than a second left when the stream opens): the participant ends the stream
      let issued = 0;
      const shortLived = createLedgerClient({ baseUrl: sandbox.url, token: () => (issued++, sandbox.token('streamer', { expiresInSeconds: lifetimeSeconds })) });
      const statuses: TailStatus[] = [];
      const start = sandbox.ledgerEnd();
      const got: number[] = [];
      const subscription = tailUpdates(shortLived, { updateFormat: format, beginExclusive: start, transport: 'websocket', tokenRefreshMarginMs: margin, onStatus: (s) => statuses.push(s) })
        .subscribe((e) => got.push(updateOffset(e) as number));
      // updates keep coming until the stream was renewed: planned (a second token) or ended by the participant
      // (a retry; it ends the stream only when it has an element to send after `exp`), then two more
      const renewed = () => (lifetimeSeconds === 2 ? issued >= 2 : statuses.some((s) => s.type === 'retrying'));
      while (!renewed()) {
        if (signal.aborted) throw new Error('still waiting for the stream to be renewed when the test ended');
        await submitOne();
        await new Promise((r) => setTimeout(r, 150));
      }
      for (let i = 0; i < 2; i++) await submitOne();
      const expected = () => sandbox.updates({ beginExclusive: start }).filter((u) => u.kind === 'Transaction').map((u) => u.offset);
      await waitFor(() => expected().every((o) => got.includes(o)), 'every submission on the tail', signal);
      subscription.unsubscribe();
      await shortLived.close();
      const updatesOnly = got.filter((o) => expected().includes(o));
      expect(updatesOnly, `margin ${margin}`).toEqual(expected());
      for (let i = 1; i < got.length; i++) expect(got[i]).toBeGreaterThan(got[i - 1] as number);
      expect(issued, `margin ${margin}`).toBeGreaterThanOrEqual(2);
      const retries = statuses.filter((s) => s.type === 'retrying');
      if (lifetimeSeconds === 2) {
        expect(retries).toEqual([]);
      } else {
        expect(retries.length).toBeGreaterThan(0);
        expect(retries.every((s) => s.type === 'retrying' && s.delayMs === 0 && (s.error as { code?: string }).code === 'ACCESS_TOKEN_EXPIRED')).toBe(true);
      }
    }
  });

  it.for(['websocket', 'list'] as const)('%s: when the user\'s rights change the participant ends the stream with STALE_STREAM_AUTHORIZATION; the tail resumes at once and delivers exactly the ledger', async (transport, { signal }) => {
    // list: a participant of its own whose checkpoint cache is never refreshed during the test (it stays at
    // offset 0), so no idle checkpoint answers a long poll early: once caught up, the tail's long poll
    // (limit=1, 15 s) stays open until an update arrives or the rights check (every 100 ms) ends it. On the
    // shared sandbox a checkpoint at the cursor answers each long poll after 200 ms
    // (`idleCheckpointIntervalMs`), and a rights change between two requests is never seen by a stream.
    const participant = transport === 'list' ? await startSandbox({ authSecret: 'stream-secret', checkpointIntervalMs: 3_600_000, userRightsCheckIntervalMs: 100 }) : sandbox;
    const admin = createLedgerClient({ baseUrl: participant.url, token: await participant.token('participant_admin') });
    const userId = `stale-${transport}`;
    await admin.createUser({ user: { id: userId, primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }] });
    const reader = createLedgerClient({ baseUrl: participant.url, token: () => participant.token(userId) });
    const alice = participant.partyId('Alice');
    const submit = async () => {
      await participant.submit({
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'CHF', amount: '1.0000000000', observers: [] } } }],
        commandId: newCommandId('stale'),
        actAs: [alice],
      });
    };
    const statuses: TailStatus[] = [];
    const start = participant.ledgerEnd();
    const got: number[] = [];
    const expected = () => participant.updates({ beginExclusive: start }).filter((u) => u.kind === 'Transaction').map((u) => u.offset);
    const subscription = tailUpdates(reader, { updateFormat: format, beginExclusive: start, transport, longPollMs: 15_000, onStatus: (s) => statuses.push(s) }).subscribe((e) =>
      got.push(updateOffset(e) as number),
    );
    try {
      for (let i = 0; i < 3; i++) await submit();
      await waitFor(() => expected().every((o) => got.includes(o)), 'the first three submissions on the tail', signal);
      const openStream = () => participant.openStreams().some((s) => s.userId === userId && s.path === '/v2/updates' && s.transport === (transport === 'list' ? 'http' : 'websocket'));
      if (transport === 'list') {
        // the last request that ended was a catch-up page that came back short, so the one open is the long poll
        const lastRequest = () => statuses.filter((s) => s.type === 'request').at(-1);
        const longPollOpen = () => {
          const last = lastRequest();
          return last?.type === 'request' && last.limit !== 1 && last.elements < (last.limit ?? Number.POSITIVE_INFINITY) && openStream();
        };
        await waitFor(longPollOpen, 'the long poll open at the participant', signal);
      } else {
        await waitFor(openStream, 'the stream open at the participant', signal);
      }
      expect(statuses.some((s) => s.type === 'retrying')).toBe(false);
      await admin.grantUserRights(userId, { userId, rights: [{ kind: { CanReadAs: { value: { party: participant.partyId('Bob') } } } }], identityProviderId: '' });
      await waitFor(() => statuses.some((s) => s.type === 'retrying'), 'the tail to resume after STALE_STREAM_AUTHORIZATION', signal);
      for (let i = 0; i < 3; i++) await submit();
      await waitFor(() => expected().every((o) => got.includes(o)), 'every submission on the tail', signal);
      expect(got.filter((o) => expected().includes(o))).toEqual(expected());
      expect(expected()).toHaveLength(6);
      for (let i = 1; i < got.length; i++) expect(got[i]).toBeGreaterThan(got[i - 1] as number);
      const retries = statuses.filter((s) => s.type === 'retrying');
      expect(retries.length).toBeGreaterThan(0);
      expect(retries.every((s) => s.type === 'retrying' && s.delayMs === 0 && (s.error as { code?: string }).code === 'STALE_STREAM_AUTHORIZATION')).toBe(true);
      // the request the participant ended was the one open when the rights changed: the list's long poll, the stream
      const failed = statuses.filter((s) => s.type === 'request' && s.outcome === 'error');
      expect(failed).toEqual([expect.objectContaining({ transport, ...(transport === 'list' ? { limit: 1 } : {}) })]);
    } finally {
      subscription.unsubscribe();
      await reader.close();
      await admin.close();
      if (participant !== sandbox) await participant.close();
    }
  });
});
