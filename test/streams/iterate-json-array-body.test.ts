import { Buffer } from 'node:buffer';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ProtocolError, TransportError } from '../../src/errors/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { iterateJsonArrayBody } from '../../src/streams/index.js';
import { decodeUpdateElement, updateOffset } from '../../src/updates/index.js';
import { chunksOf } from './scan-helpers.js';
import { mixedUpdates } from './update-fixtures.js';

const decodeUnvalidated = (value: unknown, index: number): JsGetUpdatesResponse => decodeUpdateElement(value, index, { validate: false });

/** An async iterable body that records how many chunks were pulled. */
function countingBody(chunks: readonly Uint8Array[]) {
  const state = { pulled: 0, finalized: false };
  async function* body(): AsyncGenerator<Uint8Array> {
    try {
      for (const chunk of chunks) {
        state.pulled++;
        yield chunk;
      }
    } finally {
      state.finalized = true;
    }
  }
  return { state, body: body() };
}

describe('iterateJsonArrayBody', () => {
  it('yields every element of a Readable body, with increasing offsets', async () => {
    const updates = mixedUpdates(500, 25);
    const bytes = Buffer.from(JSON.stringify(updates));
    const onTeardown = vi.fn();
    const seen: JsGetUpdatesResponse[] = [];
    for await (const element of iterateJsonArrayBody(Readable.from(chunksOf(bytes, 333)), decodeUnvalidated, { onTeardown })) {
      seen.push(element);
    }
    expect(seen).toEqual(updates);
    const offsets = seen.map(updateOffset) as number[];
    expect(offsets.every((o, i) => i === 0 || o > (offsets[i - 1] as number))).toBe(true);
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('pulls the next chunk only when the consumer asks for more', async () => {
    const { state, body } = countingBody(['[1,', '2,', '3,', '4]'].map((t) => Buffer.from(t)));
    const iterator = iterateJsonArrayBody(body, (v) => v);
    await Promise.resolve();
    expect(state.pulled).toBe(0);
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    expect(state.pulled).toBe(1);
    expect(await iterator.next()).toEqual({ done: false, value: 2 });
    expect(state.pulled).toBe(2);
    const rest: unknown[] = [];
    for await (const v of iterator) rest.push(v);
    expect(rest).toEqual([3, 4]);
    expect(state.pulled).toBe(4);
  });

  it('destroys the body and calls onTeardown when the loop is left with break', async () => {
    const body = new PassThrough();
    body.write('[1,2,3,');
    const onTeardown = vi.fn();
    const seen: unknown[] = [];
    for await (const v of iterateJsonArrayBody(body, (x) => x, { onTeardown })) {
      seen.push(v);
      if (v === 2) break;
    }
    expect(seen).toEqual([1, 2]);
    expect(body.destroyed).toBe(true);
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('calls return() on an async iterable body left early', async () => {
    const { state, body } = countingBody(['[1,', '2,', '3,', '4]'].map((t) => Buffer.from(t)));
    for await (const v of iterateJsonArrayBody(body, (x) => x)) {
      if (v === 2) break;
    }
    expect(state.finalized).toBe(true);
    expect(state.pulled).toBe(2);
  });

  it('releases the body when return() comes before the first next()', async () => {
    const body = new PassThrough();
    const onTeardown = vi.fn();
    const iterator = iterateJsonArrayBody(body, (x) => x, { onTeardown });
    await iterator.return?.();
    expect(body.destroyed).toBe(true);
    expect(onTeardown).toHaveBeenCalledTimes(1);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('throws TransportError when the body fails mid-array, after yielding what came before', async () => {
    const body = new PassThrough();
    body.write('[{"a":1},{"b"');
    setTimeout(() => body.destroy(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })), 5);
    const seen: unknown[] = [];
    const onTeardown = vi.fn();
    await expect(async () => {
      for await (const v of iterateJsonArrayBody(body, (x) => x, { onTeardown })) seen.push(v);
    }).rejects.toSatisfy((e: unknown) => e instanceof TransportError && e.code === 'CONNECTION_RESET');
    expect(seen).toEqual([{ a: 1 }]);
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('throws BODY_TRUNCATED when the body ends mid-array', async () => {
    const iterator = iterateJsonArrayBody(Readable.from([Buffer.from('[1,2,[3')]), (x) => x);
    expect((await iterator.next()).value).toBe(1);
    expect((await iterator.next()).value).toBe(2);
    await expect(iterator.next()).rejects.toSatisfy((e: unknown) => e instanceof TransportError && e.code === 'BODY_TRUNCATED');
  });

  it('throws BODY_TRUNCATED when the body is closed mid-array without an error', async () => {
    const body = new PassThrough();
    body.write('[1,2,');
    setTimeout(() => body.destroy(), 5);
    const seen: unknown[] = [];
    await expect(async () => {
      for await (const v of iterateJsonArrayBody(body, (x) => x)) seen.push(v);
    }).rejects.toSatisfy((e: unknown) => e instanceof TransportError && e.code === 'BODY_TRUNCATED');
    expect(seen).toEqual([1, 2]);
  });

  it('yields the elements before a failing one, then throws, and destroys the body', async () => {
    const body = new PassThrough();
    body.write('[1,2,3,4,5,6]');
    const decode = (v: unknown): unknown => {
      if (v === 4) throw new ProtocolError('SCHEMA_MISMATCH', 'four is not allowed', { elementIndex: 3 });
      return v;
    };
    const seen: unknown[] = [];
    await expect(async () => {
      for await (const v of iterateJsonArrayBody(body, decode)) seen.push(v);
    }).rejects.toThrow('four is not allowed');
    expect(seen).toEqual([1, 2, 3]);
    expect(body.destroyed).toBe(true);
  });
});
