import { lastValueFrom, tap, toArray, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import type { ListVettedPackagesRequest, VettedPackages } from '../../src/schemas/index.js';
import { InvalidArgumentError, ProtocolError, RetriesExhaustedError } from '../../src/errors/index.js';
import { allVettedPackages } from '../../src/operators/index.js';
import { vetted } from './support/fixtures.js';
import { startLocalServer } from './support/local-server.js';
import { cantonError, createMockLedger } from './support/mock-ledger.js';

let ledger: ReturnType<typeof createMockLedger>;
afterEach(async () => {
  await ledger?.done();
});

describe('listAllVettedPackages (the client: one walk) and allVettedPackages (the operator: the walk resumed)', () => {
  const walks: [string, (client: LedgerClient, request: ListVettedPackagesRequest) => Observable<VettedPackages>][] = [
    ['client.listAllVettedPackages', (client, request) => client.listAllVettedPackages(request)],
    ['allVettedPackages', (client, request) => allVettedPackages(client, request)],
  ];
  describe.each(walks)('%s', (_name, walk) => {
    it('emits every element of every page and stops on the final empty page', async () => {
      ledger = createMockLedger();
      const pages = [
        { vettedPackages: [vetted('p1'), vetted('p2')], nextPageToken: 't1' },
        { vettedPackages: [vetted('p3')], nextPageToken: 't2' },
        { vettedPackages: [], nextPageToken: '' },
      ];
      for (const page of pages) ledger.expect('POST', '/v2/package-vetting/list', { data: page });
      const all = await lastValueFrom(walk(ledger.client, { pageSize: 2 }).pipe(toArray()));
      expect(all.map((v) => v.participantId)).toEqual(['p1::1220ab', 'p2::1220ab', 'p3::1220ab']);
      expect(ledger.requests.map((r) => r.body)).toEqual([
        { pageSize: 2, pageToken: '' },
        { pageSize: 2, pageToken: 't1' },
        { pageSize: 2, pageToken: 't2' },
      ]);
    });

    it('stops on an empty token even if the page had elements', async () => {
      ledger = createMockLedger();
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1')], nextPageToken: '' } });
      const all = await lastValueFrom(walk(ledger.client, {}).pipe(toArray()));
      expect(all).toHaveLength(1);
      expect(ledger.requests).toHaveLength(1);
    });

    it('stops on an empty page even if it carries a token', async () => {
      ledger = createMockLedger();
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1')], nextPageToken: 't1' } });
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [], nextPageToken: 't2' } });
      const all = await lastValueFrom(walk(ledger.client, {}).pipe(toArray()));
      expect(all).toHaveLength(1);
      expect(ledger.dispatched()).toBe(2);
    });

    it('errors with PAGE_TOKEN_NOT_ADVANCING when a token repeats (after that page’s elements)', async () => {
      ledger = createMockLedger();
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1')], nextPageToken: 't1' } });
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p2')], nextPageToken: 't1' } });
      const seen: string[] = [];
      const error = await new Promise<unknown>((resolve) => {
        walk(ledger.client, {}).subscribe({ next: (v) => seen.push(v.participantId), error: resolve, complete: () => resolve(undefined) });
      });
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe('PAGE_TOKEN_NOT_ADVANCING');
      expect(seen).toEqual(['p1::1220ab', 'p2::1220ab']);
      expect(ledger.requests).toHaveLength(2);
    });

    it('detects a token equal to the starting token', async () => {
      ledger = createMockLedger();
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1')], nextPageToken: 'start' } });
      await expect(lastValueFrom(walk(ledger.client, { pageToken: 'start' }))).rejects.toMatchObject({ code: 'PAGE_TOKEN_NOT_ADVANCING' });
      expect(ledger.requests[0]?.body).toEqual({ pageToken: 'start' });
    });

    it('propagates a page error that is not retryable', async () => {
      ledger = createMockLedger();
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1')], nextPageToken: 't1' } });
      ledger.expect('POST', '/v2/package-vetting/list', { status: 400, data: cantonError({ code: 'PROTO_DESERIALIZATION_FAILURE', errorCategory: 8, grpcCodeValue: 3 }) });
      await expect(lastValueFrom(walk(ledger.client, {}))).rejects.toMatchObject({ name: 'LedgerApiError', code: 'PROTO_DESERIALIZATION_FAILURE' });
    });

    it('unsubscribing aborts the in-flight page request', async () => {
      ledger = undefined as never;
      let secondArrived!: () => void;
      const second = new Promise<void>((resolve) => (secondArrived = resolve));
      let requests = 0;
      const server = await startLocalServer((_req, res) => {
        requests++;
        if (requests === 1) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ vettedPackages: [vetted('p1')], nextPageToken: 't1' }));
        } else {
          secondArrived(); // page 2 never answers
        }
      });
      const client = createLedgerClient({ baseUrl: server.url });
      const seen: string[] = [];
      const subscription = walk(client, {}).subscribe((v) => seen.push(v.participantId));
      await second;
      expect(server.abortedRequests()).toBe(0);
      subscription.unsubscribe();
      await waitFor(() => server.abortedRequests() === 1);
      expect(seen).toEqual(['p1::1220ab']);
      expect(requests).toBe(2);
      await client.close();
      await server.close();
    });
  });

  it('allVettedPackages asks for a failed page again (same token) on a retryable error: every element exactly once', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1'), vetted('p2')], nextPageToken: 't1' } });
    ledger.expect('POST', '/v2/package-vetting/list', { status: 503, data: 'The server was not able to produce a timely response to your request.', headers: { 'content-type': 'text/plain' } });
    ledger.expect('POST', '/v2/package-vetting/list', { status: 429, data: cantonError({ code: 'PARTICIPANT_BACKPRESSURE', errorCategory: 2, grpcCodeValue: 8, retryInfo: '1 millisecond' }) });
    ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p3')], nextPageToken: 't2' } });
    ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [], nextPageToken: '' } });
    const all = await lastValueFrom(allVettedPackages(ledger.client, { pageSize: 2 }, { retry: { initialDelayMs: 1, jitter: 0 } }).pipe(toArray()));
    expect(all.map((v) => v.participantId)).toEqual(['p1::1220ab', 'p2::1220ab', 'p3::1220ab']);
    expect(ledger.requests.map((r) => (r.body as { pageToken: string }).pageToken)).toEqual(['', 't1', 't1', 't1', 't2']);
  });

  it('allVettedPackages with retry: false ends the walk on the first failure; retries exhausted → RetriesExhaustedError', async () => {
    ledger = createMockLedger();
    const busy = { status: 503, data: 'busy', headers: { 'content-type': 'text/plain' } };
    ledger.expect('POST', '/v2/package-vetting/list', busy);
    const once = await lastValueFrom(allVettedPackages(ledger.client, {}, { retry: false })).catch((e: unknown) => e);
    expect(once).toMatchObject({ status: 503, retryable: true });
    ledger.expect('POST', '/v2/package-vetting/list', busy, 3);
    const exhausted = await lastValueFrom(allVettedPackages(ledger.client, {}, { retry: { maxAttempts: 2, initialDelayMs: 1, jitter: 0 } })).catch((e: unknown) => e);
    expect(exhausted).toBeInstanceOf(RetriesExhaustedError);
    expect(ledger.requests).toHaveLength(4);
  });

  it('the client makes one attempt: a retryable failure ends its walk after the pages before it, even with the deprecated retry option', async () => {
    ledger = createMockLedger();
    const busy = { status: 503, data: 'busy', headers: { 'content-type': 'text/plain' } };
    ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1')], nextPageToken: 't1' } });
    ledger.expect('POST', '/v2/package-vetting/list', busy);
    const seen: string[] = [];
    // the deprecated option under test: accepted, and ignored
    const error = await lastValueFrom(ledger.client.listAllVettedPackages({}, { retry: { initialDelayMs: 1 } }).pipe(tap((v) => seen.push(v.participantId)))).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(seen).toEqual(['p1::1220ab']);
    expect(ledger.requests).toHaveLength(2);
  });

  it('allVettedPackages rejects a bad retry policy before anything is sent', () => {
    ledger = createMockLedger();
    expect(() => allVettedPackages(ledger.client, {}, { retry: { factor: 0.5 } })).toThrow(InvalidArgumentError);
    expect(ledger.requests).toHaveLength(0);
  });

  it('is cold: nothing is sent before subscribe, and each subscription starts over', async () => {
    ledger = createMockLedger();
    const listing = ledger.client.listAllVettedPackages({});
    expect(ledger.dispatched()).toBe(0);
    for (let i = 0; i < 2; i++) {
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [vetted('p1')], nextPageToken: 't1' } });
      ledger.expect('POST', '/v2/package-vetting/list', { data: { vettedPackages: [], nextPageToken: '' } });
    }
    expect(await lastValueFrom(listing.pipe(toArray()))).toHaveLength(1);
    expect(await lastValueFrom(listing.pipe(toArray()))).toHaveLength(1);
    expect(ledger.requests.map((r) => (r.body as { pageToken: string }).pageToken)).toEqual(['', 't1', '', 't1']);
  });

});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
