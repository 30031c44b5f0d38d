import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { tailUpdates } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { JsonArrayScanner } from '../../src/streams/index.js';
import { elementBytes, elementText, rememberElementText, wireBytes } from '../../src/updates/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';

describe('JsonArrayScanner passes each element text', () => {
  it('gives the exact text of buffered elements, across chunk boundaries', () => {
    const body = Buffer.from('[ {"a": 1, "s":"é"} ,\n {"b":[2, 3]}, "x" ]');
    const seen: [unknown, string | undefined][] = [];
    const scanner = new JsonArrayScanner((value, _i, text) => seen.push([value, text]));
    for (let i = 0; i < body.length; i += 5) scanner.write(body.subarray(i, i + 5));
    scanner.end();
    expect(seen).toEqual([
      [{ a: 1, s: 'é' }, '{"a": 1, "s":"é"}'],
      [{ b: [2, 3] }, '{"b":[2, 3]}'],
      ['x', '"x"'],
    ]);
  });

  it('gives no text for an element streamed through the oversized path', () => {
    const seen: (string | undefined)[] = [];
    const scanner = new JsonArrayScanner((_v, _i, text) => seen.push(text), { maxBufferedElementBytes: 8 });
    scanner.write(Buffer.from('[{"long":"0123456789"},{"a":1}]'));
    scanner.end();
    expect(seen).toEqual([undefined, '{"a":1}']);
  });
});

describe('wireBytes', () => {
  const element = (): JsGetUpdatesResponse => ({ update: { OffsetCheckpoint: { value: { offset: 7, synchronizerTimes: [] } } } }) as JsGetUpdatesResponse;
  const text = '{"update": {"OffsetCheckpoint":{"value":{"offset":7,"synchronizerTimes":[]}}}}';

  it('gives the received bytes themselves when the read kept them, and the text beside them', () => {
    const e = element();
    const bytes = Buffer.from(text);
    rememberElementText(e, text, bytes);
    expect(wireBytes(e)).toBe(bytes);
    expect(elementBytes(e)).toBe(bytes);
    expect(elementText(e)).toBe(text);
  });

  it('encodes the kept text when there are no bytes, and serializes the element when there is no text or it spans lines', () => {
    const withText = element();
    rememberElementText(withText, text);
    expect(elementBytes(withText)).toBeUndefined();
    expect(Buffer.from(wireBytes(withText)).toString('utf8')).toBe(text);
    const multiLine = element();
    const spread = text.replace('{"value"', '{\n"value"');
    rememberElementText(multiLine, spread, Buffer.from(spread));
    expect(JSON.parse(Buffer.from(wireBytes(multiLine)).toString('utf8'))).toEqual(JSON.parse(text));
    expect(Buffer.from(wireBytes(multiLine)).includes(0x0a)).toBe(false);
    expect(JSON.parse(Buffer.from(wireBytes(element())).toString('utf8'))).toEqual(JSON.parse(text));
  });
});

describe('rememberElementText', () => {
  const element = (): JsGetUpdatesResponse => ({ update: { OffsetCheckpoint: { value: { offset: 7, synchronizerTimes: [] } } } }) as JsGetUpdatesResponse;
  const text = '{"update":{"OffsetCheckpoint":{"value":{"offset":7,"synchronizerTimes":[]}}}}';

  it('leaves the element as its keys, a spread, a clone and JSON.stringify show it; a copy has no text', () => {
    const e = element();
    rememberElementText(e, text, Buffer.from(text));
    expect(Object.keys(e)).toEqual(['update']);
    expect(JSON.stringify(e)).toBe(text);
    expect(e).toStrictEqual(element());
    const copies = [{ ...e }, structuredClone(e), Object.assign({}, e)];
    for (const copy of copies) {
      expect(copy).toStrictEqual(e);
      expect(elementText(copy)).toBeUndefined();
      expect(elementBytes(copy)).toBeUndefined();
    }
    expect(elementText(e)).toBe(text);
  });

  it('remembers the latest text of an element, and the text of an element that cannot take a property', () => {
    const e = element();
    rememberElementText(e, 'first', Buffer.from('first'));
    rememberElementText(e, text);
    expect(elementText(e)).toBe(text);
    expect(elementBytes(e)).toBeUndefined();
    const frozen = Object.freeze(element());
    rememberElementText(frozen, text, Buffer.from(text));
    expect(elementText(frozen)).toBe(text);
    expect(elementBytes(frozen)?.toString()).toBe(text);
    expect(elementText(element())).toBeUndefined();
  });
});

describe('rawText reads', () => {
  let sandbox: Sandbox;
  let client: LedgerClient;
  const updateFormat = { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 20 });
    client = createLedgerClient({ baseUrl: sandbox.url });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it('keeps the server text of each element only when asked, for validated and unvalidated reads', async () => {
    const request = { beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat };
    for (const validate of [true, false]) {
      const kept = await lastValueFrom(client.updates(request, { limit: 100, rawText: true, validate }).pipe(toArray()));
      expect(kept.length).toBeGreaterThan(5);
      for (const element of kept) {
        const text = elementText(element) as string;
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(element)));
      }
      const plain = await lastValueFrom(client.updates(request, { limit: 100, validate }).pipe(toArray()));
      expect(plain.map((e) => elementText(e))).toEqual(plain.map(() => undefined));
    }
  });

  it('reaches the elements of a tail', async () => {
    const got = await lastValueFrom(tailUpdates(client, { updateFormat, endInclusive: sandbox.ledgerEnd(), rawText: true }).pipe(toArray()));
    expect(got.every((e) => typeof elementText(e) === 'string')).toBe(true);
  });
});
