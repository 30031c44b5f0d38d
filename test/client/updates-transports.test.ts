import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProtocolError } from '../../src/errors/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { updateOffset } from '../../src/updates/index.js';
import { transactionElement, updateFormat, updatesRequest } from './support/fixtures.js';
import { createMockLedger } from './support/mock-ledger.js';

const PAGE = '/v2/updates/get-updates-page';
const page = (offsets: number[], lowest: number, highest: number, nextPageToken?: string) => ({
  data: { updates: offsets.map(transactionElement), lowestPageOffsetExclusive: lowest, highestPageOffsetInclusive: highest, nextPageToken: nextPageToken ?? null },
});

async function collect(iterable: AsyncIterable<JsGetUpdatesResponse>): Promise<number[]> {
  const offsets: number[] = [];
  for await (const element of iterable) offsets.push(updateOffset(element) as number);
  return offsets;
}

describe("client.updates(request, { transport: 'page' }): get-updates-page walked to the end of the range", () => {
  let ledger: ReturnType<typeof createMockLedger>;
  afterEach(async () => {
    await ledger.done();
  });

  it("sends the request's offsets, format, order and page size with each token, emits every update in order, completes after the page without a token", async () => {
    ledger = createMockLedger();
    ledger.expect('POST', PAGE, page([11, 12], 10, 12, 'dDE='));
    ledger.expect('POST', PAGE, page([14], 12, 15, 'dDI='));
    ledger.expect('POST', PAGE, page([16], 15, 20));
    const got = await lastValueFrom(ledger.client.updates(updatesRequest({ endInclusive: 20 }), { transport: 'page', pageSize: 2 }).pipe(toArray()));
    expect(got.map(updateOffset)).toEqual([11, 12, 14, 16]);
    const first = { updateFormat, beginOffsetExclusive: 10, endOffsetInclusive: 20, maxPageSize: 2 };
    expect(ledger.requests.map((r) => r.body)).toEqual([first, { ...first, pageToken: 'dDE=' }, { ...first, pageToken: 'dDI=' }]);
  });

  it('an ascending read without endInclusive completes after its first empty page (the ledger end as of that page); a descending one sends its order', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', PAGE, page([11], 10, 11, 'dDE='));
    ledger.expect('POST', PAGE, page([], 11, 11, 'dDI='));
    ledger.expect('POST', PAGE, page([12, 11], 10, 12));
    expect((await lastValueFrom(ledger.client.updates(updatesRequest(), { transport: 'page' }).pipe(toArray()))).map(updateOffset)).toEqual([11]);
    expect(ledger.requests).toHaveLength(2);
    const descending = await lastValueFrom(ledger.client.updates(updatesRequest({ endInclusive: 12, descendingOrder: true }), { transport: 'page' }).pipe(toArray()));
    expect(descending.map(updateOffset)).toEqual([12, 11]);
    expect(ledger.requests[2]?.body).toEqual({ updateFormat, beginOffsetExclusive: 10, endOffsetInclusive: 12, descendingOrder: true });
  });

  it('checks the order across pages (a repeated update is OFFSET_NOT_INCREASING) and ends on a token that does not advance', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', PAGE, page([11, 12], 10, 12, 'dDE='));
    ledger.expect('POST', PAGE, page([12, 13], 12, 13, 'dDI='));
    const seen: number[] = [];
    const error = await lastValueFrom(ledger.client.updates(updatesRequest({ endInclusive: 20 }), { transport: 'page' }), { defaultValue: undefined })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: 'OFFSET_NOT_INCREASING', offset: 12 });
    ledger.expect('POST', PAGE, page([11], 10, 11, 'dDE='));
    ledger.expect('POST', PAGE, page([12], 11, 12, 'dDE='));
    const loop = await new Promise<unknown>((resolve) => {
      ledger.client.updates(updatesRequest({ endInclusive: 20 }), { transport: 'page' }).subscribe({ next: (e) => seen.push(updateOffset(e) as number), error: resolve, complete: () => resolve(undefined) });
    });
    expect(loop).toMatchObject({ code: 'PAGE_TOKEN_NOT_ADVANCING' });
    expect(seen).toEqual([11, 12]);
  });

  it('converts a legacy filter to the updateFormat it sends, and iterateUpdates reads the same pages', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', PAGE, page([11], 10, 11));
    const filter = { filtersByParty: { 'Alice::1220aa': {} } };
    const request = { beginExclusive: 10, endInclusive: 11, filter };
    expect(await collect(ledger.client.iterateUpdates(request, { transport: 'page' }))).toEqual([11]);
    const body = ledger.requests[0]?.body as Record<string, unknown>;
    expect(body['filter']).toBeUndefined();
    expect(body['updateFormat']).toMatchObject({ includeTransactions: { eventFormat: { filtersByParty: { 'Alice::1220aa': {} } } } });
  });

  it('refuses an option of another transport before anything is sent', () => {
    ledger = createMockLedger();
    expect(() => ledger.client.updates(updatesRequest(), { transport: 'page', limit: 5 })).toThrow(InvalidArgumentError);
    expect(() => ledger.client.iterateUpdates(updatesRequest(), { transport: 'websocket', pageSize: 5 })).toThrow(InvalidArgumentError);
    expect(() => ledger.client.updates(updatesRequest(), { transport: 'auto' as never })).toThrow(/'auto' is the operators'/);
    expect(ledger.dispatched()).toBe(0);
  });
});
