import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, type RawResponse } from '../support/sandbox-http.js';
import { expectDecodeFailure, expectError, expectRedacted, testSecret } from './auth-test-kit.js';
import { ACS, addUser, checkAgainstLog, isVisible, updateFormat } from './ledger-support.js';

interface Page {
  updates: { update: Record<string, { value: { offset: number } }> }[];
  lowestPageOffsetExclusive: number;
  highestPageOffsetInclusive: number;
  nextPageToken: string | null;
}

let sandbox: Sandbox;
let fmt: Record<string, unknown>;
let alice: string;

const page = (body: unknown, options: { sandbox?: Sandbox; token?: string } = {}): Promise<RawResponse> =>
  call((options.sandbox ?? sandbox).url, 'POST', '/v2/updates/get-updates-page', { body, ...(options.token ? { token: options.token } : {}) });

async function ok(body: unknown, on: Sandbox = sandbox): Promise<Page> {
  const r = await page(body, { sandbox: on });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return r.json as Page;
}

const offsets = (p: Page) => p.updates.map((u) => (Object.values(u.update)[0] as { value: { offset: number } }).value.offset);

/** Follows the tokens from `first` until a page has no token or brings nothing new; returns every update's offset. */
async function walk(first: Record<string, unknown>, on: Sandbox = sandbox): Promise<{ all: number[]; pages: Page[] }> {
  const pages: Page[] = [];
  let body = first;
  for (;;) {
    const p = await ok(body, on);
    pages.push(p);
    if (p.nextPageToken === null || p.updates.length === 0) break;
    body = { ...first, pageToken: p.nextPageToken };
  }
  return { all: pages.flatMap(offsets), pages };
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 700 });
  alice = sandbox.partyId('Alice');
  fmt = updateFormat([alice]);
});
afterAll(() => sandbox.close());

describe('POST /v2/updates/get-updates-page', () => {
  it('pages of 100 by default; following the tokens reads every update once, in order; an ascending read without an end always has a token', async () => {
    const visible = sandbox.updates().filter((u) => isVisible(sandbox, u, { transactions: { shape: ACS, parties: [alice] } }));
    expect(visible.length).toBeGreaterThan(250);
    const { all, pages } = await walk({ updateFormat: fmt });
    expect(pages[0]?.updates).toHaveLength(100);
    expect(pages[0]?.lowestPageOffsetExclusive).toBe(0);
    expect(pages[0]?.highestPageOffsetInclusive).toBe((visible[100]?.offset as number) - 1);
    checkAgainstLog(sandbox, pages.flatMap((p) => p.updates), { transactions: { shape: ACS, parties: [alice] } }, { beginExclusive: 0, endInclusive: sandbox.ledgerEnd() });
    expect(all).toEqual(visible.map((u) => u.offset));
    const last = pages.at(-1) as Page;
    expect(last.nextPageToken).not.toBeNull();
    expect(last.highestPageOffsetInclusive).toBe(sandbox.ledgerEnd());
    // tailing: new updates arrive on the next page of the same token
    sandbox.seed(40);
    const more = await ok({ updateFormat: fmt, pageToken: last.nextPageToken });
    expect(offsets(more).length).toBeGreaterThan(0);
    expect(Math.min(...offsets(more))).toBeGreaterThan(last.highestPageOffsetInclusive);
  });

  it('with an end the last page has no token; descending pages are newest first and end without a token', async () => {
    const end = sandbox.ledgerEnd();
    const bounded = await walk({ updateFormat: fmt, beginOffsetExclusive: 20, endOffsetInclusive: end, maxPageSize: 77 });
    expect(bounded.pages.at(-1)?.nextPageToken).toBeNull();
    expect(bounded.pages.every((p) => p.updates.length <= 77)).toBe(true);
    const desc = await walk({ updateFormat: fmt, beginOffsetExclusive: 20, endOffsetInclusive: end, descendingOrder: true, maxPageSize: 64 });
    expect(desc.pages.at(-1)?.nextPageToken).toBeNull();
    expect(desc.all).toEqual([...bounded.all].reverse());
    expect(desc.pages[1]?.highestPageOffsetInclusive).toBe(desc.pages[0]?.lowestPageOffsetExclusive);
  });

  it('accepts maxPageSize up to 2000 (never a 413) and rejects 0 and 2001', async () => {
    const big = await ok({ updateFormat: updateFormat('any'), maxPageSize: 2000 });
    expect(big.updates.length).toBeGreaterThan(200);
    expectError(await page({ updateFormat: fmt, maxPageSize: 2001 }), 400, 'INVALID_ARGUMENT');
    expect((await page({ updateFormat: fmt, maxPageSize: 0 })).json).toMatchObject({ cause: expect.stringContaining('Requested page size must be positive, but got 0') });
  });

  it('a token replayed with other parameters, on another participant, or garbled, is refused', async () => {
    const first = await ok({ updateFormat: fmt, maxPageSize: 10 });
    const token = first.nextPageToken as string;
    const other = expectError(await page({ updateFormat: fmt, maxPageSize: 11, pageToken: token }), 400, 'INVALID_UPDATES_PAGE_TOKEN');
    expect(other.cause).toMatch(/obtained with different request parameters$/);
    expectError(await page({ updateFormat: updateFormat([alice, sandbox.partyId('Bob')]), maxPageSize: 10, pageToken: token }), 400, 'INVALID_UPDATES_PAGE_TOKEN');
    expectError(await page({ updateFormat: fmt, maxPageSize: 10, descendingOrder: true, pageToken: token }), 400, 'INVALID_UPDATES_PAGE_TOKEN');
    const elsewhere = await startSandbox({ seed: 30, randomSeed: 7 });
    try {
      const anyFirst = await ok({ updateFormat: updateFormat('any'), maxPageSize: 10 });
      const r = await page({ updateFormat: updateFormat('any'), maxPageSize: 10, pageToken: anyFirst.nextPageToken }, { sandbox: elsewhere });
      expect(expectError(r, 400, 'INVALID_UPDATES_PAGE_TOKEN').cause).toMatch(/obtained from an other participant node$/);
    } finally {
      await elsewhere.close();
    }
    expectDecodeFailure(await page({ updateFormat: fmt, pageToken: 'not base64!' }));
    expectError(await page({ updateFormat: fmt, pageToken: '////' }), 400, 'INVALID_FIELD');
    expect(expectError(await page({ updateFormat: fmt, pageToken: '' }), 400, 'INVALID_UPDATES_PAGE_TOKEN').cause).toMatch(/different Canton version$/);
  });

  it('validates offsets and the format in the server order', async () => {
    const end = sandbox.ledgerEnd();
    expectError(await page({ updateFormat: fmt, endOffsetInclusive: end + 1 }), 400, 'OFFSET_AFTER_LEDGER_END');
    expectError(await page({ updateFormat: fmt, endOffsetInclusive: 0 }), 400, 'NON_POSITIVE_OFFSET');
    expectError(await page({ updateFormat: fmt, beginOffsetExclusive: -1 }), 400, 'NEGATIVE_OFFSET');
    expectError(await page({ updateFormat: fmt, beginOffsetExclusive: 9, endOffsetInclusive: 8 }), 400, 'INVALID_ARGUMENT');
    expectError(await page({}), 400, 'MISSING_FIELD');
    expectError(await page({ updateFormat: updateFormat([alice], ACS, { filters: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: '#nope:A:B' } } } }] } }) }), 404, 'PACKAGE_NAMES_NOT_FOUND');
    expectDecodeFailure(await page({ updateFormat: fmt, maxPageSize: 'x' }));
    // a begin after the ledger end is not refused: the page is empty and its bounds are (begin, ledger end]
    const after = await ok({ updateFormat: fmt, beginOffsetExclusive: end + 50 });
    expect(after).toMatchObject({ updates: [], lowestPageOffsetExclusive: end + 50, highestPageOffsetInclusive: end });
  });

  it('starts after the pruning offset without a begin; a strict begin below it is PARTICIPANT_PRUNED_DATA_ACCESSED', async () => {
    const pruned = await startSandbox({ seed: 80 });
    try {
      const f = updateFormat([pruned.partyId('Alice')]);
      pruned.prune(40);
      const first = await ok({ updateFormat: f, maxPageSize: 5 }, pruned);
      expect(first.lowestPageOffsetExclusive).toBe(40);
      expect(offsets(first).every((o) => o > 40)).toBe(true);
      const desc = await walk({ updateFormat: f, descendingOrder: true, maxPageSize: 7 }, pruned);
      expect(desc.all.every((o) => o > 40)).toBe(true);
      expect(desc.pages.at(-1)?.lowestPageOffsetExclusive).toBe(40);
      const r = await page({ updateFormat: f, beginOffsetExclusive: 0 }, { sandbox: pruned });
      expect(expectError(r, 400, 'PARTICIPANT_PRUNED_DATA_ACCESSED').context['earliest_offset']).toBe('40');
    } finally {
      await pruned.close();
    }
  });

  it('needs the read rights of the update format', async () => {
    const secured = await startSandbox({ seed: 5, authSecret: testSecret });
    try {
      addUser(secured, 'nobody', []);
      expectRedacted(await page({ updateFormat: updateFormat([secured.partyId('Alice')]) }, { sandbox: secured, token: await secured.token('nobody') }), 403);
      expectRedacted(await page({ updateFormat: updateFormat([secured.partyId('Alice')]) }, { sandbox: secured }), 401);
    } finally {
      await secured.close();
    }
  });
});
