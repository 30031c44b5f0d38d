import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { createIou, postUpdates, updateFormat } from './ledger-support.js';

/**
 * int64 values anywhere in the int64 range decode (as JSON numbers — read as the nearest double — or as
 * numeric strings) and meet the server's semantic checks; only values outside int64 are the 400
 * text/plain decode failure.
 */

let sandbox: Sandbox;
let end: number;
let alice: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 10, listWaitMs: 20 });
  end = sandbox.ledgerEnd();
  alice = sandbox.partyId('Alice');
});
afterAll(() => sandbox.close());

const format = JSON.stringify(updateFormat('any'));
const raw = (fields: string, query = '') => call(sandbox.url, 'POST', `/v2/updates${query}`, { rawBody: `{${fields}${fields ? ',' : ''}"updateFormat":${format}}` });

function expectCode(r: Awaited<ReturnType<typeof raw>>, status: number, code: string): string {
  expect(r.status, r.text).toBe(status);
  expect((r.json as { code: string }).code).toBe(code);
  return (r.json as { cause: string }).cause;
}

function expectDecodeFailure(r: Awaited<ReturnType<typeof raw>>, text: RegExp): void {
  expect(r.status, r.text).toBe(400);
  expect(r.contentType).toMatch(/^text\/plain/);
  expect(r.text).toMatch(text);
}

describe('POST /v2/updates offsets', () => {
  it.each([
    ['a number', '9223372036854775807'],
    ['a string', '"9223372036854775807"'],
    ['a number above 2^53', '9007199254740993'],
    ['a string above 2^53', '"9007199254740993"'],
  ])('beginExclusive = int64 max as %s is OFFSET_AFTER_LEDGER_END', async (_as, value) => {
    expect(expectCode(await raw(`"beginExclusive":${value}`), 400, 'OFFSET_AFTER_LEDGER_END')).toMatch(/^Begin offset \(\d+\) is after ledger end/);
  });

  it('endInclusive = int64 max is OFFSET_AFTER_LEDGER_END (end)', async () => {
    expect(expectCode(await raw('"endInclusive":"9223372036854775807"'), 400, 'OFFSET_AFTER_LEDGER_END')).toMatch(/^End offset/);
    expect(expectCode(await raw('"endInclusive":9223372036854775807,"descendingOrder":true'), 400, 'OFFSET_AFTER_LEDGER_END')).toMatch(/^End offset/);
  });

  it('beginExclusive = int64 min is NEGATIVE_OFFSET', async () => {
    expectCode(await raw('"beginExclusive":"-9223372036854775808"'), 400, 'NEGATIVE_OFFSET');
    expectCode(await raw('"beginExclusive":-9223372036854775808'), 400, 'NEGATIVE_OFFSET');
  });

  it.each([
    ['a string just above int64', '"9223372036854775808"'],
    ['a string just below int64', '"-9223372036854775809"'],
    ['a number beyond int64', '9223372036854777856'],
    ['a number far beyond int64', '1e19'],
    ['a fraction', '1.5'],
  ])('refuses %s with the decode failure', async (_what, value) => {
    expectDecodeFailure(await raw(`"beginExclusive":${value}`), /beginExclusive/);
  });
});

describe('POST /v2/updates query parameters', () => {
  it('takes limit at the int64 bounds: max is no limit below the cap, min answers []', async () => {
    const all = await raw(`"endInclusive":${end}`, '?limit=9223372036854775807');
    expect(all.status, all.text).toBe(200);
    expect((all.json as unknown[]).length).toBeGreaterThan(0);
    const none = await raw(`"endInclusive":${end}`, '?limit=-9223372036854775808');
    expect(none.json).toEqual([]);
  });

  it('accepts a leading + (Long.parseLong; %2B in the URL, a bare + is a space)', async () => {
    const r = await raw(`"endInclusive":${end}`, '?limit=%2B2&stream_idle_timeout_ms=%2B1000');
    expect(r.status, r.text).toBe(200);
    expect(r.json).toHaveLength(2);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '++1', '+', '+-1', ' 1'])('refuses limit=%s with the decode failure', async (limit) => {
    expectDecodeFailure(await raw('', `?limit=${encodeURIComponent(limit)}`), /^Invalid value for: query parameter limit$/);
  });

  it('waits on an open-ended read with stream_idle_timeout_ms = int64 max (no timer overflow)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const begin = sandbox.ledgerEnd();
      const pending = postUpdates(sandbox, { beginExclusive: begin, updateFormat: updateFormat([alice]) }, '?limit=2&stream_idle_timeout_ms=9223372036854775807');
      // Past the initial checkpoint probe (500 ms): from then on the read waits for the idle deadline.
      await new Promise((resolve) => setTimeout(resolve, 700));
      const { offset } = await sandbox.submit({ commands: [createIou(alice, alice)], commandId: 'int64-idle', actAs: [alice] });
      const r = await pending;
      expect(r.status, r.text).toBe(200);
      // A checkpoint (probe, or before the update) may come first; the update is within two elements.
      const tx = (r.json as { update: { Transaction?: { value: { offset: number } } } }[]).find((e) => e.update.Transaction);
      expect(tx?.update.Transaction?.value.offset).toBe(offset);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('POST /v2/commands/async/submit int64 fields', () => {
  let n = 0;
  const submit = (extra: string) =>
    call(sandbox.url, 'POST', '/v2/commands/async/submit', {
      rawBody: `{"commands":${JSON.stringify([createIou(alice, alice)])},"commandId":"int64-${++n}","actAs":[${JSON.stringify(alice)}],"userId":"u"${extra}}`,
    });

  it('a deduplication offset beyond the ledger end is INVALID_DEDUPLICATION_PERIOD', async () => {
    expectCode(await submit(',"deduplicationPeriod":{"DeduplicationOffset":{"value":9223372036854775807}}'), 400, 'INVALID_DEDUPLICATION_PERIOD');
    expectCode(await submit(',"deduplicationPeriod":{"DeduplicationOffset":{"value":"9223372036854775807"}}'), 400, 'INVALID_DEDUPLICATION_PERIOD');
    expectCode(await submit(',"deduplicationPeriod":{"DeduplicationOffset":{"value":"-9223372036854775808"}}'), 400, 'NEGATIVE_OFFSET');
  });

  it('a deduplication duration of int64 seconds is checked against the maximum', async () => {
    expectCode(await submit(',"deduplicationPeriod":{"DeduplicationDuration":{"value":{"seconds":9223372036854775807,"nanos":0}}}'), 400, 'INVALID_DEDUPLICATION_PERIOD');
    expectCode(await submit(',"deduplicationPeriod":{"DeduplicationDuration":{"value":{"seconds":"-9223372036854775808","nanos":0}}}'), 400, 'INVALID_FIELD');
  });

  it('a huge minLedgerTimeRel decodes (no crash, no 500)', async () => {
    const r = await submit(',"minLedgerTimeRel":{"seconds":"9223372036854775807","nanos":0}');
    expect(r.status, r.text).toBe(200);
  });

  it('refuses seconds outside int64 with the decode failure', async () => {
    expectDecodeFailure(await submit(',"minLedgerTimeRel":{"seconds":"9223372036854775808","nanos":0}'), /seconds/);
  });
});

describe('int32 page sizes in query parameters', () => {
  it('accept a leading +', async () => {
    const users = await call(sandbox.url, 'GET', '/v2/users?pageSize=%2B1');
    expect(users.status, users.text).toBe(200);
    expect((users.json as { users: unknown[] }).users).toHaveLength(1);
    const parties = await call(sandbox.url, 'GET', '/v2/parties?pageSize=%2B2');
    expect(parties.status, parties.text).toBe(200);
    expect((parties.json as { partyDetails: unknown[] }).partyDetails).toHaveLength(2);
  });

  it('refuse values outside int32 with the decode failure', async () => {
    expectDecodeFailure(await call(sandbox.url, 'GET', '/v2/users?pageSize=2147483648'), /^Invalid value for: query parameter pageSize$/);
  });
});
