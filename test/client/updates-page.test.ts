import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, LedgerApiError, ProtocolError } from '../../src/errors/index.js';
import type { GetUpdatesPageRequest } from '../../src/schemas/index.js';
import { elementText } from '../../src/updates/index.js';
import { checkpointElement, transactionElement, updateFormat } from './support/fixtures.js';
import { cantonError, createMockLedger } from './support/mock-ledger.js';

const PATH = '/v2/updates/get-updates-page';

function pageRequest(overrides: Partial<GetUpdatesPageRequest> = {}): GetUpdatesPageRequest {
  return { beginOffsetExclusive: 10, updateFormat, maxPageSize: 3, ...overrides };
}

describe('updatesPage() over a mocked participant', () => {
  let ledger: ReturnType<typeof createMockLedger>;
  afterEach(async () => {
    await ledger.done();
  });

  it('sends the request as written and returns the decoded updates, the bounds and the next token', async () => {
    ledger = createMockLedger({ token: 'jwt' });
    const updates = [transactionElement(11), transactionElement(14)];
    ledger.expect('POST', PATH, { data: { updates, lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 14, nextPageToken: 'CgQIARAB' } });
    const page = await ledger.client.updatesPage(pageRequest({ pageToken: 'CgQ=' }));
    expect(page).toEqual({ updates, lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 14, nextPageToken: 'CgQIARAB' });
    expect(ledger.requests[0]?.body).toEqual(pageRequest({ pageToken: 'CgQ=' }));
    expect(ledger.requests[0]?.headers['authorization']).toBe('Bearer jwt');
  });

  it('reads a last page (no token, no updates member), keeps raw text on request, and skips validation when asked', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', PATH, { data: { lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 10, nextPageToken: null } });
    const text = JSON.stringify(transactionElement(12));
    ledger.expect('POST', PATH, { data: `{"updates":[${text}],"lowestPageOffsetExclusive":"10","highestPageOffsetInclusive":12}` });
    ledger.expect('POST', PATH, { data: { updates: [{ update: { Transaction: { value: { offset: 13 } } } }], lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 13 } });
    expect(await ledger.client.updatesPage(pageRequest())).toEqual({ updates: [], lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 10, nextPageToken: undefined });
    const raw = await ledger.client.updatesPage(pageRequest(), { rawText: true });
    expect(raw.lowestPageOffsetExclusive).toBe(10); // the schema reads the numeric string as the server sends offsets
    expect(elementText(raw.updates[0] as object)).toBe(text);
    const unchecked = await ledger.client.updatesPage(pageRequest(), { validate: false });
    expect(unchecked.updates).toHaveLength(1);
  });

  it('checks every update against the request: offsets in range and in order (descending too)', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', PATH, { data: { updates: [transactionElement(14), transactionElement(12)], lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 14 } });
    ledger.expect('POST', PATH, { data: { updates: [transactionElement(21)], lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 21 } });
    ledger.expect('POST', PATH, { data: { updates: [transactionElement(14), transactionElement(12)], lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 14 } });
    await expect(ledger.client.updatesPage(pageRequest())).rejects.toMatchObject({ code: 'OFFSET_NOT_INCREASING', elementIndex: 1, offset: 12 });
    await expect(ledger.client.updatesPage(pageRequest({ endOffsetInclusive: 20 }))).rejects.toMatchObject({ code: 'OFFSET_NOT_INCREASING', offset: 21 });
    const descending = await ledger.client.updatesPage(pageRequest({ endOffsetInclusive: 20, descendingOrder: true }));
    expect(descending.updates).toHaveLength(2);
  });

  it('rejects a page whose bounds do not match the schema, and a broken element', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', PATH, { data: { updates: [], highestPageOffsetInclusive: 14 } });
    ledger.expect('POST', PATH, { data: { updates: [checkpointElement(11), { update: {} }], lowestPageOffsetExclusive: 10, highestPageOffsetInclusive: 14 } });
    await expect(ledger.client.updatesPage(pageRequest())).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH', message: expect.stringContaining('lowestPageOffsetExclusive') });
    const error = await ledger.client.updatesPage(pageRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: 'SCHEMA_MISMATCH', elementIndex: 1 });
  });

  it('rejects with the LedgerApiError of an error answer, all ten fields kept', async () => {
    ledger = createMockLedger();
    const body = cantonError({ code: 'INVALID_UPDATES_PAGE_TOKEN', cause: 'The submitted command contains an invalid page token. Next page token was obtained with different request parameters', errorCategory: 8, grpcCodeValue: 3, resources: [], context: { category: '8' } });
    ledger.expect('POST', PATH, { status: 400, data: body });
    const error = await ledger.client.updatesPage(pageRequest({ pageToken: 'CgQ=' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerApiError);
    expect((error as LedgerApiError).body).toEqual(body);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_UPDATES_PAGE_TOKEN', retryable: false });
  });

  it.each([
    [{ maxPageSize: 0 }, 'maxPageSize'],
    [{ maxPageSize: 2 ** 31 }, 'maxPageSize'],
    [{ endOffsetInclusive: 0 }, 'endOffsetInclusive'],
    [{ beginOffsetExclusive: -1 }, 'beginOffsetExclusive'],
    [{ beginOffsetExclusive: 9, endOffsetInclusive: 8 }, 'beginOffsetExclusive'],
    [{ pageToken: 'a-b_' }, 'pageToken'],
    [{ pageToken: 'abcde' }, 'pageToken'],
    [{ updateFormat: { includeTransactions: { eventFormat: { filtersByParty: {}, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }, 'updateFormat.includeTransactions.eventFormat'],
  ] as const)('rejects %j before sending (%s)', async (overrides, field) => {
    ledger = createMockLedger();
    const error = await ledger.client.updatesPage(pageRequest(overrides as Partial<GetUpdatesPageRequest>)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).field).toContain(field);
    await expect(ledger.client.updatesPage({ beginOffsetExclusive: 1 } as GetUpdatesPageRequest)).rejects.toMatchObject({ field: 'updateFormat' });
    await expect(ledger.client.updatesPage(pageRequest(), { rawText: 'yes' } as never)).rejects.toMatchObject({ field: 'rawText' });
    expect(ledger.dispatched()).toBe(0);
  });
});
