import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { contractEntryKind } from '../../src/active-contracts/index.js';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { activeContractsSnapshot, type TailStatus } from '../../src/operators/index.js';
import { InvalidArgumentError, LedgerApiError, PrunedOffsetError } from '../../src/errors/index.js';
import type { JsGetActiveContractsResponse } from '../../src/schemas/index.js';
import { ALICE, activeEntry } from './support/fixtures.js';
import { startLocalWebSocketServer, type LocalWebSocketServer } from './support/local-websocket-server.js';
import { cantonError, createMockLedger } from './support/mock-ledger.js';

const eventFormat = { filtersByParty: { [ALICE]: { cumulative: [] } }, verbose: false };
const fastRetry = { initialDelayMs: 1, maxDelayMs: 2, jitter: 0 };
const ids = (entries: JsGetActiveContractsResponse[]) =>
  entries.map((e) => (e.contractEntry as { JsActiveContract: { createdEvent: { contractId: string } } }).JsActiveContract.createdEvent.contractId);

describe('activeContracts() over the list and the pages', () => {
  let ledger: ReturnType<typeof createMockLedger>;
  afterEach(async () => {
    await ledger.done();
  });

  it('list: looks the ledger end up, sends the legacy filter as an eventFormat, reports the offset before the first entry', async () => {
    ledger = createMockLedger();
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: 42 } });
    ledger.expect('POST', '/v2/state/active-contracts', { data: [activeEntry('c1'), activeEntry('c2'), { contractEntry: { JsFuture: { x: 1 } } }] });
    const seen: unknown[] = [];
    const entries = await lastValueFrom(
      ledger.client
        .activeContracts({ filter: { filtersByParty: { [ALICE]: { cumulative: [] } } }, verbose: true }, { transport: 'list', onActiveAtOffset: (o) => seen.push(`offset ${o}`) })
        .pipe(toArray()),
    );
    expect(ids(entries.slice(0, 2))).toEqual(['c1', 'c2']);
    expect(contractEntryKind(entries[2] as JsGetActiveContractsResponse)).toBe('unknown');
    expect(seen).toEqual(['offset 42']);
    expect(ledger.requests[1]?.body).toEqual({ activeAtOffset: 42, eventFormat: { filtersByParty: { [ALICE]: { cumulative: [] } }, verbose: true } });
  });

  it('list: a list above the participant limit is its 413, not retried; a pruned offset is PrunedOffsetError', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/state/active-contracts', {
      status: 413,
      data: cantonError({ code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', errorCategory: 8, grpcCodeValue: 3, cause: 'is greater than the node limit (200).' }),
    });
    ledger.expect('POST', '/v2/state/active-contracts', {
      status: 413,
      data: cantonError({ code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', errorCategory: 8, grpcCodeValue: 3, cause: 'is greater than the node limit (200).' }),
    });
    ledger.expect('POST', '/v2/state/active-contracts', {
      status: 400,
      data: cantonError({ code: 'PARTICIPANT_PRUNED_DATA_ACCESSED', errorCategory: 9, grpcCodeValue: 9, context: { earliest_offset: '30' } }),
    });
    const tooLarge = await lastValueFrom(ledger.client.activeContracts({ activeAtOffset: 40, eventFormat }, { transport: 'list', retry: fastRetry })).catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(LedgerApiError);
    expect(tooLarge).toMatchObject({ status: 413 });
    // activeContractsSnapshot has no page size to lower: the 413 is the error, after one request
    const resumed = await lastValueFrom(activeContractsSnapshot(ledger.client, { activeAtOffset: 40, eventFormat }, { transport: 'list', retry: fastRetry })).catch((e: unknown) => e);
    expect(resumed).toMatchObject({ status: 413 });
    expect(ledger.dispatched()).toBe(2);
    const pruned = await lastValueFrom(ledger.client.activeContracts({ activeAtOffset: 10, eventFormat }, { transport: 'list' })).catch((e: unknown) => e);
    expect(pruned).toBeInstanceOf(PrunedOffsetError);
  });

  it('page: follows the page tokens with the request otherwise unchanged, takes the offset from the first page; activeContractsSnapshot retries a failed page with its token', async () => {
    ledger = createMockLedger();
    const path = '/v2/state/active-contracts-page';
    ledger.expect('GET', path, { data: { activeContracts: [activeEntry('c1', null), activeEntry('c2', null)], activeAtOffset: 77, nextPageToken: 'CgE=' } });
    ledger.expect('GET', path, { status: 503, data: cantonError({ code: 'SERVICE_NOT_RUNNING', errorCategory: 1, grpcCodeValue: 14, retryInfo: '1 millisecond' }) });
    ledger.expect('GET', path, { data: { activeContracts: [activeEntry('c3', null)], activeAtOffset: 77 } });
    const statuses: TailStatus[] = [];
    const offsets: number[] = [];
    const entries = await lastValueFrom(
      activeContractsSnapshot(ledger.client, { eventFormat }, { transport: 'page', pageSize: 2, retry: fastRetry, onStatus: (s) => statuses.push(s), onActiveAtOffset: (o) => offsets.push(o) }).pipe(toArray()),
    );
    expect(ids(entries)).toEqual(['c1', 'c2', 'c3']);
    expect(offsets).toEqual([77]);
    expect(ledger.requests.map((r) => r.body)).toEqual([
      { eventFormat, maxPageSize: 2 },
      { eventFormat, maxPageSize: 2, pageToken: 'CgE=' },
      { eventFormat, maxPageSize: 2, pageToken: 'CgE=' },
    ]);
    expect(statuses.map((s) => s.type)).toEqual(['transport-selected', 'resumed', 'request', 'request', 'retrying', 'resumed', 'request']);
    expect(statuses[2]).toMatchObject({ type: 'request', transport: 'page', outcome: 'ok', elements: 2, limit: 2 });
  });

  it('page: while paused, the next page is not requested', async () => {
    ledger = createMockLedger();
    const path = '/v2/state/active-contracts-page';
    ledger.expect('GET', path, { data: { activeContracts: [activeEntry('c1', null)], activeAtOffset: 5, nextPageToken: 'CgE=' } });
    ledger.expect('GET', path, { data: { activeContracts: [activeEntry('c2', null)], activeAtOffset: 5 } });
    const { BehaviorSubject } = await import('rxjs');
    const paused = new BehaviorSubject(false);
    const seen: string[] = [];
    const read = ledger.client.activeContracts({ eventFormat }, { transport: 'page', paused });
    await new Promise<void>((resolve, reject) =>
      read.subscribe({
        next: (entry) => {
          seen.push(ids([entry])[0] as string);
          if (seen.length === 1) {
            paused.next(true);
            setTimeout(() => {
              expect(ledger.requests).toHaveLength(1); // held while paused
              paused.next(false);
            }, 50);
          }
        },
        error: reject,
        complete: resolve,
      }),
    );
    expect(seen).toEqual(['c1', 'c2']);
    expect(ledger.requests).toHaveLength(2);
  });

  it('activeContractsPage() reads one page; invalid requests send nothing', async () => {
    ledger = createMockLedger();
    ledger.expect('GET', '/v2/state/active-contracts-page', { data: { activeContracts: [activeEntry('c1', null)], activeAtOffset: 9, nextPageToken: '' } });
    const page = await ledger.client.activeContractsPage({ eventFormat, activeAtOffset: 9 });
    expect(ids(page.activeContracts)).toEqual(['c1']);
    expect(page).toMatchObject({ activeAtOffset: 9, nextPageToken: undefined });
    const bad = [
      () => ledger.client.activeContracts({ eventFormat, filter: { filtersByParty: { [ALICE]: {} } } }),
      () => ledger.client.activeContracts({ eventFormat, verbose: true }),
      () => ledger.client.activeContracts({}),
      () => ledger.client.activeContracts({ eventFormat: { filtersByParty: {} } }),
      () => ledger.client.activeContracts({ eventFormat, activeAtOffset: -1 }),
      () => ledger.client.activeContracts({ eventFormat, streamContinuationToken: 'not base64!' }),
      () => ledger.client.activeContracts({ eventFormat }, { transport: 'ftp' as 'list' }),
      () => ledger.client.activeContracts({ eventFormat }, { pageSize: 0 }),
    ];
    for (const call of bad) expect(call).toThrow(InvalidArgumentError);
    await expect(ledger.client.activeContractsPage({ eventFormat, maxPageSize: 0 })).rejects.toThrow(InvalidArgumentError);
    expect(ledger.dispatched()).toBe(1);
  });
});

describe('activeContracts() over a WebSocket', () => {
  let server: LocalWebSocketServer;
  let client: LedgerClient;
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('sends one request frame, completes on the normal close; activeContractsSnapshot resumes a dropped stream after the last continuation token', async () => {
    server = await startLocalWebSocketServer();
    client = createLedgerClient({ baseUrl: server.url, participantVersion: '3.6.0' });
    const got = lastValueFrom(activeContractsSnapshot(client, { eventFormat, activeAtOffset: 50 }, { transport: 'websocket', retry: fastRetry }).pipe(toArray()));
    const first = await server.next();
    expect(first.request.url).toBe('/v2/state/active-contracts');
    expect(JSON.parse(await first.firstFrame)).toEqual({ eventFormat, activeAtOffset: 50 });
    first.socket.send(JSON.stringify(activeEntry('c1')));
    first.socket.send(JSON.stringify(activeEntry('c2')));
    first.socket.terminate();
    const second = await server.next();
    expect(JSON.parse(await second.firstFrame)).toEqual({ eventFormat, activeAtOffset: 50, streamContinuationToken: activeEntry('c2').streamContinuationToken });
    second.socket.send(JSON.stringify(activeEntry('c3')));
    second.socket.close(1000);
    expect(ids(await got)).toEqual(['c1', 'c2', 'c3']);
  });

  it('without continuation tokens, activeContractsSnapshot restarts the snapshot and skips what was delivered; an error frame is its LedgerApiError, not retried', async () => {
    server = await startLocalWebSocketServer();
    client = createLedgerClient({ baseUrl: server.url, participantVersion: '3.6.0' });
    const got = lastValueFrom(activeContractsSnapshot(client, { eventFormat, activeAtOffset: 50 }, { transport: 'websocket', retry: fastRetry }).pipe(toArray()));
    const first = await server.next();
    await first.firstFrame;
    first.socket.send(JSON.stringify(activeEntry('c1', null)));
    first.socket.close(1011);
    const second = await server.next();
    expect(JSON.parse(await second.firstFrame)).toEqual({ eventFormat, activeAtOffset: 50 });
    for (const id of ['c1', 'c2']) second.socket.send(JSON.stringify(activeEntry(id, null)));
    second.socket.close(1000);
    expect(ids(await got)).toEqual(['c1', 'c2']);

    const failed = lastValueFrom(client.activeContracts({ eventFormat, activeAtOffset: 99 })).catch((e: unknown) => e);
    const third = await server.next();
    await third.firstFrame;
    third.socket.send(JSON.stringify(cantonError({ code: 'PACKAGE_NAMES_NOT_FOUND', errorCategory: 11, grpcCodeValue: 5 })));
    third.socket.close(1000);
    expect(await failed).toMatchObject({ code: 'PACKAGE_NAMES_NOT_FOUND', status: 404 });
  });
});
