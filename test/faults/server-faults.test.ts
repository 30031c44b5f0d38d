import { lastValueFrom, tap, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { ProtocolError, TransportError, type LedgerRxError } from '../../src/errors/index.js';
import { MemoryCheckpointStore } from '../../src/checkpoints/index.js';
import { readDescending, tailUpdates, trackCheckpoint, type UpdatesSource } from '../../src/operators/index.js';
import { startSandbox, type Sandbox, type UpdateFault } from '../../src/sandbox/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { elementOffset, expectedOffsets, reportFigures, viewFormat, type TransactionView } from '../support/ledger-oracle.js';

/**
 * The sandbox's own faults (`injectFault`): malformed JSON mid-body, an element that fails the schema, an
 * unknown variant, an offset going backwards, a duplicate offset, a truncated body. Each must give a typed
 * error or a documented pass-through, never a silent loss or a crash — through `client.updates()` (one call)
 * and through the operators (which must not retry a protocol violation, and must not deliver it).
 */

const view: TransactionView = { parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' };
const retry = { initialDelayMs: 1, maxDelayMs: 20, jitter: 0, maxAttempts: 5 };
let cases = 0;

/** A client counting its `POST /v2/updates` calls. */
function counting(client: LedgerClient): UpdatesSource & { calls: number } {
  const source = {
    calls: 0,
    updates: (request: Parameters<LedgerClient['updates']>[0], options?: Parameters<LedgerClient['updates']>[1]) => {
      source.calls++;
      return client.updates(request, options);
    },
    ledgerEnd: () => client.ledgerEnd(),
  };
  return source;
}

/** Subscribes once: the elements emitted, and the error (or `undefined` when it completed). */
async function collect(o: Observable<JsGetUpdatesResponse>): Promise<{ elements: JsGetUpdatesResponse[]; error: unknown }> {
  const elements: JsGetUpdatesResponse[] = [];
  const error = await new Promise<unknown>((resolve) => o.subscribe({ next: (e) => elements.push(e), error: resolve, complete: () => resolve(undefined) }));
  return { elements, error };
}

const offsets = (elements: readonly JsGetUpdatesResponse[]) => elements.map(elementOffset);

for (const responseMode of ['buffered', 'streamed'] as const) {
  describe(`sandbox faults (${responseMode})`, () => {
    let sandbox: Sandbox;
    let client: LedgerClient;
    let end: number;
    let truth: number[];
    const request = () => ({ beginExclusive: 0, endInclusive: end, updateFormat: viewFormat(view) });

    beforeAll(async () => {
      sandbox = await startSandbox({ seed: 60, responseMode });
      client = createLedgerClient({ baseUrl: sandbox.url });
      end = sandbox.ledgerEnd();
      truth = expectedOffsets(sandbox, view, { endInclusive: end });
      expect(truth.length).toBeGreaterThan(20);
    });
    afterAll(async () => {
      await client.close();
      await sandbox.close();
    });

    /** Tails (0, end] with a checkpoint; returns what was delivered, the error, the checkpoint and the request count. */
    async function tail(fault: UpdateFault | undefined, options: { validate?: boolean } = {}) {
      if (fault) sandbox.injectFault(fault);
      const source = counting(client);
      const store = new MemoryCheckpointStore();
      const delivered: JsGetUpdatesResponse[] = [];
      const error = await lastValueFrom(
        tailUpdates(source, { transport: 'list', beginExclusive: 0, endInclusive: end, updateFormat: viewFormat(view), pageLimit: 50, retry, ...options }).pipe(
          tap((e) => delivered.push(e)),
          trackCheckpoint(store, { every: 1, everyMs: 0 }),
        ),
        { defaultValue: undefined },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      return { delivered, error, checkpoint: (await store.load())?.offset, calls: source.calls, store };
    }

    /** After a protocol error: a new tail from the checkpoint delivers the rest, so nothing was lost. */
    async function resumeFrom(store: MemoryCheckpointStore, already: readonly (number | undefined)[]) {
      const rest: number[] = [];
      await lastValueFrom(
        tailUpdates(client, { transport: 'list', checkpointStore: store, endInclusive: end, updateFormat: viewFormat(view), pageLimit: 50, retry }).pipe(tap((e) => rest.push(elementOffset(e) as number))),
        { defaultValue: undefined },
      );
      expect([...already, ...rest]).toEqual(truth);
    }

    it('malformed JSON: ProtocolError MALFORMED_JSON after the good elements, never retried, nothing lost on resume', async () => {
      sandbox.injectFault({ kind: 'malformed-json', afterElements: 3 });
      const one = await collect(client.updates(request(), { limit: 50 }));
      expect(offsets(one.elements)).toEqual(truth.slice(0, 3));
      expect(one.error).toBeInstanceOf(ProtocolError);
      expect(one.error).toMatchObject({ code: 'MALFORMED_JSON', retryable: false });
      expect((one.error as ProtocolError).bytePosition).toBeGreaterThan(0);

      sandbox.injectFault({ kind: 'malformed-json', afterElements: 2 });
      const iterated: number[] = [];
      const thrown = await (async () => {
        for await (const e of client.iterateUpdates(request(), { limit: 50 })) iterated.push(elementOffset(e) as number);
      })().catch((e: unknown) => e);
      expect(iterated).toEqual(truth.slice(0, 2));
      expect(thrown).toMatchObject({ name: 'ProtocolError', code: 'MALFORMED_JSON' });

      const t = await tail({ kind: 'malformed-json', afterElements: 2 });
      expect(t.error).toBeInstanceOf(ProtocolError);
      expect(t.error).toMatchObject({ code: 'MALFORMED_JSON' });
      expect(t.calls).toBe(1); // not retried
      expect(offsets(t.delivered)).toEqual(truth.slice(0, 2));
      expect(t.checkpoint).toBe(truth[1]);
      await resumeFrom(t.store, offsets(t.delivered));
      cases += 3;
    });

    it('schema violation: ProtocolError SCHEMA_MISMATCH naming the element; with validate: false the documented pass-through', async () => {
      sandbox.injectFault({ kind: 'schema-violation', afterElements: 4 });
      const one = await collect(client.updates(request(), { limit: 50 }));
      expect(offsets(one.elements)).toEqual(truth.slice(0, 4));
      expect(one.error).toBeInstanceOf(ProtocolError);
      expect(one.error).toMatchObject({ code: 'SCHEMA_MISMATCH', elementIndex: 4, retryable: false });
      expect((one.error as ProtocolError).issues.length).toBeGreaterThan(0);

      const t = await tail({ kind: 'schema-violation', afterElements: 3 });
      expect(t.error).toMatchObject({ name: 'ProtocolError', code: 'SCHEMA_MISMATCH' });
      expect(t.calls).toBe(1);
      expect(offsets(t.delivered)).toEqual(truth.slice(0, 3));
      expect(t.checkpoint).toBe(truth[2]);
      await resumeFrom(t.store, offsets(t.delivered));

      // validate: false (the opt-out the CLI uses) only checks the envelope: the odd element is delivered as
      // sent, has no readable offset, and moves nothing; every ledger element still arrives exactly once.
      const unchecked = await tail({ kind: 'schema-violation', afterElements: 3 }, { validate: false });
      expect(unchecked.error).toBeUndefined();
      const odd = unchecked.delivered[3] as unknown as { update: { Transaction: { value: { updateId: unknown; offset: unknown } } } };
      expect(odd.update.Transaction.value).toMatchObject({ updateId: 42, offset: 'not-an-offset' });
      expect(offsets(unchecked.delivered.filter((_, i) => i !== 3))).toEqual(truth);
      expect(unchecked.checkpoint).toBe(truth.at(-1));
      cases += 3;
    });

    it('unknown variant: delivered as {unknownVariant, payload} by client.updates and by the operators, nothing lost', async () => {
      sandbox.injectFault({ kind: 'unknown-variant', afterElements: 2 });
      const one = await collect(client.updates(request(), { limit: 200 }));
      expect(one.error).toBeUndefined();
      expect(one.elements).toHaveLength(truth.length + 1);
      const unknown = { update: { unknownVariant: 'LedgerRxFutureUpdate', payload: { value: { note: 'an update kind from a newer server' } } } };
      expect(one.elements[2]).toEqual(unknown);
      expect(offsets(one.elements.filter((_, i) => i !== 2))).toEqual(truth);

      // Through a paged read the element is delivered too; having no offset, it moves no cursor, and every
      // ledger element still arrives exactly once.
      const t = await tail({ kind: 'unknown-variant', afterElements: 2 });
      expect(t.error).toBeUndefined();
      expect(t.delivered[2]).toEqual(unknown);
      expect(offsets(t.delivered.filter((_, i) => i !== 2))).toEqual(truth);
      expect(t.checkpoint).toBe(truth.at(-1));
      cases += 2;
    });

    it('offset going backwards: never accepted by the operators (ProtocolError OFFSET_NOT_INCREASING, not retried)', async () => {
      sandbox.injectFault({ kind: 'offset-regression', afterElements: 3 });
      const one = await collect(client.updates(request(), { limit: 50 }));
      // one raw call already refuses it, after the elements before it
      expect(one.error).toBeInstanceOf(ProtocolError);
      expect(one.error).toMatchObject({ code: 'OFFSET_NOT_INCREASING', offset: (truth[2] as number) - 1, elementIndex: 3, retryable: false });
      expect(offsets(one.elements)).toEqual(truth.slice(0, 3));

      const t = await tail({ kind: 'offset-regression', afterElements: 3 });
      expect(t.error).toBeInstanceOf(ProtocolError);
      expect(t.error).toMatchObject({ code: 'OFFSET_NOT_INCREASING', offset: (truth[2] as number) - 1, retryable: false });
      expect(t.calls).toBe(1);
      expect(offsets(t.delivered)).toEqual(truth.slice(0, 3));
      expect(t.checkpoint).toBe(truth[2]);
      await resumeFrom(t.store, offsets(t.delivered));
      cases += 2;
    });

    it('duplicate offset: never delivered twice (ProtocolError OFFSET_NOT_INCREASING), ascending and descending', async () => {
      sandbox.injectFault({ kind: 'duplicate-offset', afterElements: 2 });
      const one = await collect(client.updates(request(), { limit: 50 }));
      expect(one.error).toMatchObject({ name: 'ProtocolError', code: 'OFFSET_NOT_INCREASING', offset: truth[1], elementIndex: 2 });
      expect(offsets(one.elements)).toEqual(truth.slice(0, 2));

      const t = await tail({ kind: 'duplicate-offset', afterElements: 4 });
      expect(t.error).toMatchObject({ name: 'ProtocolError', code: 'OFFSET_NOT_INCREASING', offset: truth[3] });
      expect(t.calls).toBe(1);
      expect(offsets(t.delivered)).toEqual(truth.slice(0, 4));
      await resumeFrom(t.store, offsets(t.delivered));

      sandbox.injectFault({ kind: 'duplicate-offset', afterElements: 3 });
      const descending = await collect(readDescending(client, { transport: 'list', updateFormat: viewFormat(view), endInclusive: end, pageLimit: 50, retry }));
      const newest = [...truth].reverse();
      expect(offsets(descending.elements)).toEqual(newest.slice(0, 3));
      expect(descending.error).toMatchObject({ name: 'ProtocolError', code: 'OFFSET_NOT_INCREASING', offset: newest[2] });
      cases += 3;
    });

    it('truncated body: a retryable TransportError from one call; the operators retry and lose nothing', async () => {
      sandbox.injectFault({ kind: 'truncate', afterElements: 5 });
      const one = await collect(client.updates(request(), { limit: 50 }));
      expect(offsets(one.elements)).toEqual(truth.slice(0, 5));
      expect(one.error).toBeInstanceOf(TransportError);
      expect((one.error as LedgerRxError).retryable).toBe(true);
      expect(['BODY_TRUNCATED', 'CONNECTION_RESET']).toContain((one.error as LedgerRxError).code);

      sandbox.injectFault({ kind: 'truncate', afterElements: 5, times: 3 });
      const t = await tail(undefined);
      expect(t.error).toBeUndefined();
      expect(offsets(t.delivered)).toEqual(truth);
      expect(t.calls).toBeGreaterThanOrEqual(4);
      expect(t.checkpoint).toBe(truth.at(-1));
      cases += 2;
    });
  });
}

describe('sandbox faults over the WebSocket, through tailUpdates', () => {
  let sandbox: Sandbox;
  let client: LedgerClient;
  let end: number;
  let truth: number[];

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 60 });
    client = createLedgerClient({ baseUrl: sandbox.url });
    end = sandbox.ledgerEnd();
    truth = expectedOffsets(sandbox, view, { endInclusive: end });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  /** Tails (0, end] over the WebSocket with a checkpoint, counting the streams opened. */
  async function wsTail(fault: UpdateFault | undefined) {
    if (fault) sandbox.injectFault({ ...fault, transport: 'websocket' });
    let streams = 0;
    const source: UpdatesSource = {
      transports: ['list', 'websocket'],
      updates: (request, options) => {
        if (options?.transport === 'websocket') streams++;
        return client.updates(request, options);
      },
      ledgerEnd: () => client.ledgerEnd(),
    };
    const store = new MemoryCheckpointStore();
    const delivered: JsGetUpdatesResponse[] = [];
    const error = await lastValueFrom(
      tailUpdates(source, { transport: 'websocket', beginExclusive: 0, endInclusive: end, updateFormat: viewFormat(view), retry, pingIntervalMs: 20, silenceTimeoutMs: 150 }).pipe(
        tap((e) => delivered.push(e)),
        trackCheckpoint(store, { every: 1, everyMs: 0 }),
      ),
      { defaultValue: undefined },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { delivered, error, checkpoint: (await store.load())?.offset, streams, store };
  }

  it.each([
    ['malformed-json', 'MALFORMED_JSON'],
    ['schema-violation', 'SCHEMA_MISMATCH'],
    ['offset-regression', 'OFFSET_NOT_INCREASING'],
    ['duplicate-offset', 'OFFSET_NOT_INCREASING'],
  ] as const)('%s frame: ProtocolError %s after exactly the frames before it, not retried, the rest on resume', async (kind, code) => {
    const t = await wsTail({ kind, afterElements: 4 });
    expect(t.error).toBeInstanceOf(ProtocolError);
    expect(t.error).toMatchObject({ code, retryable: false });
    expect(t.streams).toBe(1);
    expect(offsets(t.delivered)).toEqual(truth.slice(0, 4));
    expect(t.checkpoint).toBe(truth[3]);
    const rest: number[] = [];
    await lastValueFrom(
      tailUpdates(client, { transport: 'websocket', checkpointStore: t.store, endInclusive: end, updateFormat: viewFormat(view), retry }).pipe(tap((e) => rest.push(elementOffset(e) as number))),
      { defaultValue: undefined },
    );
    expect([...offsets(t.delivered), ...rest]).toEqual(truth);
    cases++;
  });

  it.each(['truncate', 'drop', 'close-1011'] as const)('%s: the stream is resumed after the last delivered element and delivers exactly the ledger', async (kind) => {
    sandbox.injectFault({ kind, afterElements: 7, times: 2, transport: 'websocket' });
    const t = await wsTail(undefined);
    expect(t.error).toBeUndefined();
    expect(offsets(t.delivered)).toEqual(truth);
    expect(t.streams).toBe(3);
    expect(t.checkpoint).toBe(truth.at(-1));
    cases++;
  });

  it('unknown variant frame: delivered as an unknown value, moves no cursor, nothing lost', async () => {
    const t = await wsTail({ kind: 'unknown-variant', afterElements: 2 });
    expect(t.error).toBeUndefined();
    expect(t.delivered[2]).toMatchObject({ update: { unknownVariant: 'LedgerRxFutureUpdate' } });
    expect(offsets(t.delivered.filter((_, i) => i !== 2))).toEqual(truth);
    cases++;
  });
});

afterAll(() => reportFigures('server-faults', { cases }));
