import { Buffer } from 'node:buffer';
import { PassThrough, Readable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { firstValueFrom, take, toArray, type Observable } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { AbortError, ProtocolError, TransportError } from '../../src/errors/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { observeJsonArrayBody } from '../../src/streams/index.js';
import { decodeUpdateElement, updateOffset } from '../../src/updates/index.js';
import { generateRealisticUpdatesBody } from '../../benchmarks/lib/realistic-updates.js';
import { chunksOf } from './scan-helpers.js';
import { mixedUpdates } from './update-fixtures.js';

const decodeValidated = (value: unknown, index: number): JsGetUpdatesResponse => decodeUpdateElement(value, index, { validate: true });

function expectIncreasingOffsets(elements: readonly JsGetUpdatesResponse[]): void {
  let previous = -1;
  for (const element of elements) {
    const offset = updateOffset(element);
    expect(offset).toBeTypeOf('number');
    expect(offset as number).toBeGreaterThan(previous);
    previous = offset as number;
  }
}

/** Collects what an Observable delivers, for assertions at any point. */
function record<T>(source: Observable<T>) {
  const state = { values: [] as T[], error: undefined as unknown, completed: false };
  const subscription = source.subscribe({
    next: (v) => state.values.push(v),
    error: (e: unknown) => {
      state.error = e;
    },
    complete: () => {
      state.completed = true;
    },
  });
  return { state, subscription };
}

const realistic = generateRealisticUpdatesBody(300_000, 7);

describe('observeJsonArrayBody', () => {
  it('emits every element of a realistic body read from Readable.from(chunks), in order', async () => {
    const expected = (JSON.parse(realistic.body.toString('utf8')) as unknown[]).map(decodeValidated);
    expect(expected.length).toBeGreaterThan(40);
    for (const size of [1024, 64 * 1024]) {
      const elements = await firstValueFrom(
        observeJsonArrayBody(Readable.from(chunksOf(realistic.body, size)), decodeValidated).pipe(toArray()),
      );
      expect(elements).toEqual(expected);
      expectIncreasingOffsets(elements);
      expect(updateOffset(elements.at(-1) as JsGetUpdatesResponse)).toBe(realistic.lastOffset);
    }
  });

  it('is cold: nothing is read before subscribing', async () => {
    let started = false;
    async function* body(): AsyncGenerator<Uint8Array> {
      started = true;
      yield Buffer.from('[1,2]');
    }
    const observable = observeJsonArrayBody(body(), (v) => v);
    await tick();
    expect(started).toBe(false);
    expect(await firstValueFrom(observable.pipe(toArray()))).toEqual([1, 2]);
    expect(started).toBe(true);
  });

  it('emits elements as their bytes arrive, before the body ends, and completes at the end', async () => {
    const updates = mixedUpdates(100, 4);
    const texts = updates.map((u) => JSON.stringify(u));
    const body = new PassThrough();
    const onTeardown = vi.fn();
    const { state } = record(observeJsonArrayBody(body, decodeValidated, { onTeardown }));
    body.write(`[${texts[0]},${(texts[1] as string).slice(0, 20)}`);
    await tick();
    expect(state.values).toHaveLength(1);
    body.write(`${(texts[1] as string).slice(20)},${texts[2]}`);
    await tick();
    expect(state.values).toHaveLength(3);
    expect(state.completed).toBe(false);
    body.write(`,${texts[3]}`);
    body.end(']\n');
    await tick();
    expect(state.values).toEqual(updates);
    expectIncreasingOffsets(state.values);
    expect(state.completed).toBe(true);
    expect(state.error).toBeUndefined();
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('destroys the body and calls onTeardown when unsubscribed mid-body', async () => {
    const body = new PassThrough();
    const onTeardown = vi.fn();
    const { state, subscription } = record(observeJsonArrayBody(body, (v) => v, { onTeardown }));
    body.write('[1,2,');
    await tick();
    expect(state.values).toEqual([1, 2]);
    expect(body.destroyed).toBe(false);
    subscription.unsubscribe();
    expect(body.destroyed).toBe(true);
    expect(onTeardown).toHaveBeenCalledTimes(1);
    body.emit('error', new Error('late socket error')); // must not become an uncaught exception
    await tick();
    expect(state.error).toBeUndefined();
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('stops within the chunk when the subscriber unsubscribes from inside next', async () => {
    const body = Readable.from([Buffer.from('[1,2,3,4,5,6]')]);
    const decode = vi.fn((v: unknown) => v);
    const onTeardown = vi.fn();
    const values = await firstValueFrom(observeJsonArrayBody(body, decode, { onTeardown }).pipe(take(2), toArray()));
    expect(values).toEqual([1, 2]);
    expect(decode).toHaveBeenCalledTimes(2);
    expect(body.destroyed).toBe(true);
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('errors with CONNECTION_RESET when the body fails mid-array, after emitting what came before', async () => {
    const body = new PassThrough();
    const onTeardown = vi.fn();
    const { state } = record(observeJsonArrayBody(body, (v) => v, { onTeardown }));
    body.write('[{"a":1},{"b":');
    await tick();
    const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    body.destroy(cause);
    await tick();
    expect(state.values).toEqual([{ a: 1 }]);
    expect(state.error).toBeInstanceOf(TransportError);
    expect((state.error as TransportError).code).toBe('CONNECTION_RESET');
    expect((state.error as TransportError).cause).toBe(cause);
    expect((state.error as TransportError).retryable).toBe(true);
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('errors with BODY_TRUNCATED when the body ends or is closed mid-array', async () => {
    for (const stop of [(b: PassThrough) => b.end(), (b: PassThrough) => b.destroy()]) {
      const body = new PassThrough();
      const { state } = record(observeJsonArrayBody(body, (v) => v));
      body.write('[1,2,{"x"');
      await tick();
      stop(body);
      await tick();
      expect(state.values).toEqual([1, 2]);
      expect(state.error).toBeInstanceOf(TransportError);
      expect((state.error as TransportError).code).toBe('BODY_TRUNCATED');
      expect(state.completed).toBe(false);
    }
  });

  it('maps an abort of the body to AbortError', async () => {
    const body = new PassThrough();
    const { state } = record(observeJsonArrayBody(body, (v) => v));
    body.write('[1,');
    await tick();
    body.destroy(new DOMException('This operation was aborted', 'AbortError'));
    await tick();
    expect(state.error).toBeInstanceOf(AbortError);
  });

  it('completes when the body fails after the array was closed', async () => {
    const body = new PassThrough();
    const { state } = record(observeJsonArrayBody(body, (v) => v));
    body.write('[1,2]');
    await tick();
    body.destroy(new Error('reset after the last byte'));
    await tick();
    expect(state.values).toEqual([1, 2]);
    expect(state.completed).toBe(true);
    expect(state.error).toBeUndefined();
  });

  it('errors with the ProtocolError of a malformed body and destroys it', async () => {
    const body = new PassThrough();
    const onTeardown = vi.fn();
    const { state } = record(observeJsonArrayBody(body, (v) => v, { onTeardown }));
    body.write('[1,2 3]');
    await tick();
    expect(state.values).toEqual([1, 2]);
    expect(state.error).toBeInstanceOf(ProtocolError);
    expect((state.error as ProtocolError).code).toBe('MALFORMED_JSON');
    expect((state.error as ProtocolError).bytePosition).toBe(5);
    expect(body.destroyed).toBe(true);
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('errors with what decode throws and destroys the body', async () => {
    const elements = mixedUpdates(10, 3);
    (elements[1] as { update: unknown }).update = { Transaction: { value: { offset: 13 } } };
    const body = new PassThrough();
    const { state } = record(observeJsonArrayBody(body, decodeValidated));
    body.write(JSON.stringify(elements));
    await tick();
    expect(state.values).toEqual([elements[0]]);
    expect((state.error as ProtocolError).code).toBe('SCHEMA_MISMATCH');
    expect((state.error as ProtocolError).elementIndex).toBe(1);
    expect((state.error as ProtocolError).offset).toBe(13);
    expect(body.destroyed).toBe(true);
  });

  it('reads an async iterable body and calls return() when unsubscribed', async () => {
    let returned = false;
    let release: () => void = () => undefined;
    async function* body(): AsyncGenerator<Uint8Array> {
      try {
        yield Buffer.from('[{"n":1},');
        yield Buffer.from('{"n":2},');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        yield Buffer.from('{"n":3}]');
      } finally {
        returned = true;
      }
    }
    const onTeardown = vi.fn();
    const { state, subscription } = record(observeJsonArrayBody(body(), (v) => v, { onTeardown }));
    await vi.waitFor(() => expect(state.values).toHaveLength(2));
    subscription.unsubscribe();
    expect(onTeardown).toHaveBeenCalledTimes(1);
    release();
    await vi.waitFor(() => expect(returned).toBe(true));
    expect(state.values).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('errors with CONNECTION_RESET when an async iterable body throws mid-array', async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('[1,');
      throw new Error('socket hang up');
    }
    const { state } = record(observeJsonArrayBody(body(), (v) => v));
    await vi.waitFor(() => expect(state.error).toBeDefined());
    expect(state.values).toEqual([1]);
    expect((state.error as TransportError).code).toBe('CONNECTION_RESET');
  });

  it('errors at once for a body that was already destroyed', async () => {
    const body = new PassThrough();
    body.destroy();
    const onTeardown = vi.fn();
    const { state } = record(observeJsonArrayBody(body, (v) => v, { onTeardown }));
    expect((state.error as TransportError).code).toBe('BODY_TRUNCATED');
    expect(onTeardown).toHaveBeenCalledTimes(1);
  });

  it('accepts string chunks from a Readable with an encoding set', async () => {
    const body = Readable.from([Buffer.from('["é", 1]')]);
    body.setEncoding('utf8');
    expect(await firstValueFrom(observeJsonArrayBody(body, (v) => v).pipe(toArray()))).toEqual(['é', 1]);
  });
});
