import { firstValueFrom, from, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Checkpoint, CheckpointStore } from '../../src/operators/checkpoint.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { UsageError } from '../../src/cli/options/usage-error.js';
import type { UpdateWriter } from '../../src/cli/output/update-writer.js';
import { endOfRun } from '../../src/cli/process/end-of-run.js';
import { StopRequested } from '../../src/cli/process/stop-requested.js';
import { checkTailOptions } from '../../src/cli/tail/check-tail-options.js';
import { deliveryAction, type DeliveryFacts } from '../../src/cli/tail/delivery-action.js';
import { planTailRead } from '../../src/cli/tail/plan-tail-read.js';
import { TailDelivery } from '../../src/cli/tail/tail-delivery.js';
import type { TailOptions } from '../../src/cli/tail/tail-options.js';
import { takeUpdates } from '../../src/cli/tail/take-updates.js';
import { wantsStatusLine, type StatusLineFacts } from '../../src/cli/tail/wants-status-line.js';
import { LedgerApiError } from '../../src/errors/ledger-api-error.js';
import { RetriesExhaustedError } from '../../src/errors/retries-exhausted-error.js';

const base: TailOptions = { source: { sandbox: true }, filter: {} };
const tx = (offset: number) => ({ update: { Transaction: { value: { offset, updateId: `u${offset}`, events: [] } } } }) as unknown as JsGetUpdatesResponse;
const cp = (offset: number) => ({ update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } } }) as unknown as JsGetUpdatesResponse;

describe('checkTailOptions', () => {
  const refused: [string, Partial<TailOptions>, RegExp][] = [
    ['two checkpoint stores', { checkpointFile: 'c.json', checkpointPg: 'postgres://x', streamName: 's' }, /either --checkpoint or --checkpoint-pg/],
    ['--checkpoint-pg without a stream name', { checkpointPg: 'postgres://x' }, /needs --stream-name/],
    ['--checkpoint-pg with an empty stream name', { checkpointPg: 'postgres://x', streamName: '' }, /needs --stream-name/],
    ['--stream-name alone', { streamName: 's' }, /goes with --checkpoint-pg/],
    ['--descending with a checkpoint file', { descending: true, checkpointFile: 'c.json' }, /takes no checkpoint/],
    ['--descending with a PostgreSQL checkpoint', { descending: true, checkpointPg: 'postgres://x', streamName: 's' }, /takes no checkpoint/],
    ['--descending --from end', { descending: true, from: 'end' }, /reads nothing/],
    ['--to below --from', { from: 10, to: 9 }, /--to 9 is below --from 10/],
  ];
  it.each(refused)('refuses %s', (_name, flags, message) => {
    expect(() => checkTailOptions({ ...base, ...flags })).toThrow(UsageError);
    expect(() => checkTailOptions({ ...base, ...flags })).toThrow(message);
  });
  const accepted: [string, Partial<TailOptions>][] = [
    ['no flags', {}],
    ['a checkpoint file', { checkpointFile: 'c.json' }],
    ['a PostgreSQL checkpoint with its stream', { checkpointPg: 'postgres://x', streamName: 's' }],
    ['--descending --from OFFSET', { descending: true, from: 5, to: 9 }],
    ['--to equal to --from', { from: 9, to: 9 }],
    ['--from end --to end', { from: 'end', to: 'end' }],
  ];
  it.each(accepted)('accepts %s', (_name, flags) => expect(() => checkTailOptions({ ...base, ...flags })).not.toThrow());
});

describe('planTailRead', () => {
  const cases: [string, Partial<TailOptions>, { beginExclusive: number | 'ledger-end'; endInclusive: number | 'ledger-end' | undefined }, unknown][] = [
    ['forever from the start', {}, { beginExclusive: 0, endInclusive: undefined }, { kind: 'ascending', beginExclusive: 0, pageLimit: 200 }],
    ['up to an offset', { pageLimit: 50 }, { beginExclusive: 3, endInclusive: 90 }, { kind: 'ascending', beginExclusive: 3, endInclusive: 90, pageLimit: 50 }],
    ['only new updates', {}, { beginExclusive: 'ledger-end', endInclusive: undefined }, { kind: 'ascending', beginExclusive: 'ledger-end', pageLimit: 200 }],
    ['the flags of the catch-up and the long poll', { idleTimeoutMs: 0, longPollMs: 900 }, { beginExclusive: 0, endInclusive: undefined }, { kind: 'ascending', beginExclusive: 0, pageLimit: 200, idleTimeoutMs: 0, longPollMs: 900 }],
    ['an empty ledger up to its end', {}, { beginExclusive: 0, endInclusive: 0 }, { kind: 'nothing' }],
    ['descending to the ledger end, pages no larger than --limit', { descending: true, limit: 10 }, { beginExclusive: 0, endInclusive: 'ledger-end' }, { kind: 'descending', endInclusive: 'ledger-end', beginExclusive: 0, pageLimit: 10 }],
    ['descending with a --limit above the page limit', { descending: true, limit: 1000, pageLimit: 100 }, { beginExclusive: 4, endInclusive: 80 }, { kind: 'descending', endInclusive: 80, beginExclusive: 4, pageLimit: 100 }],
    ['descending without an end', { descending: true }, { beginExclusive: 7, endInclusive: undefined }, { kind: 'descending', endInclusive: 'ledger-end', beginExclusive: 7, pageLimit: 200 }],
    ['descending reads an empty ledger as a descending read', { descending: true }, { beginExclusive: 0, endInclusive: 0 }, { kind: 'descending', endInclusive: 0, beginExclusive: 0, pageLimit: 200 }],
  ];
  it.each(cases)('%s', (_name, flags, range, plan) => expect(planTailRead({ ...base, ...flags }, range)).toEqual(plan));
});

describe('deliveryAction', () => {
  const f = (o: Partial<DeliveryFacts>): DeliveryFacts => ({ offset: 5, handledOffset: undefined, descending: false, isCheckpoint: false, includeCheckpoints: false, ...o });
  const cases: [string, DeliveryFacts, string][] = [
    ['the first update', f({}), 'write'],
    ['an update past the last handled', f({ handledOffset: 4 }), 'write'],
    ['an update at the last handled offset (redelivered after a retry)', f({ handledOffset: 5 }), 'repeat'],
    ['an update below the last handled offset', f({ handledOffset: 9 }), 'repeat'],
    ['descending: an update below the last handled', f({ descending: true, handledOffset: 9 }), 'write'],
    ['descending: an update at or above the last handled', f({ descending: true, handledOffset: 5 }), 'repeat'],
    ['a checkpoint, not written', f({ isCheckpoint: true }), 'pass'],
    ['a checkpoint with --checkpoints', f({ isCheckpoint: true, includeCheckpoints: true }), 'write'],
    ['a checkpoint already handled', f({ isCheckpoint: true, handledOffset: 5 }), 'repeat'],
    ['an element without an offset', f({ offset: undefined, handledOffset: 5 }), 'write'],
  ];
  it.each(cases)('%s', (_name, facts, action) => expect(deliveryAction(facts)).toBe(action));
});

describe('wantsStatusLine', () => {
  const f = (o: Partial<StatusLineFacts>): StatusLineFacts => ({ flag: undefined, stderrIsTTY: true, stdoutIsTTY: true, toStdout: true, pretty: true, ...o });
  const cases: [string, StatusLineFacts, boolean][] = [
    ['the human view on a terminal', f({}), true],
    ['NDJSON to the same terminal', f({ pretty: false }), false],
    ['NDJSON into a pipe, stderr on a terminal', f({ pretty: false, stdoutIsTTY: false }), true],
    ['NDJSON into a file from a terminal', f({ pretty: false, toStdout: false }), true],
    ['stderr redirected', f({ stderrIsTTY: false }), false],
    ['--no-progress', f({ flag: false }), false],
    ['--progress forced off a terminal', f({ flag: true, stderrIsTTY: false }), true],
  ];
  it.each(cases)('%s', (_name, facts, wanted) => expect(wantsStatusLine(facts)).toBe(wanted));
});

describe('checkTailOptions: the human view', () => {
  it('refuses --format pretty in an --out file that a checkpoint resumes, and allows it elsewhere', () => {
    expect(() => checkTailOptions({ ...base, format: 'pretty', out: 'view.txt', checkpointFile: 'c.json' })).toThrow(/must be --format ndjson/);
    expect(() => checkTailOptions({ ...base, format: 'pretty', out: 'view.txt' })).not.toThrow();
    expect(() => checkTailOptions({ ...base, format: 'pretty', checkpointFile: 'c.json' })).not.toThrow();
  });
});

describe('endOfRun', () => {
  const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
  const eacces = Object.assign(new Error('EACCES'), { code: 'EACCES' });
  const serverError = new LedgerApiError({ status: 400, body: { code: 'PERMISSION_DENIED', cause: 'no', errorCategory: 7 } } as never);
  const cases: [string, { error: unknown } | undefined, Error | undefined, string, number][] = [
    ['the work finished', undefined, undefined, 'done', 0],
    ['a stop during the start-up', { error: new StopRequested() }, undefined, 'stopped-early', 0],
    ['the reader of the pipe went away', { error: epipe }, epipe, 'output-closed', 0],
    ['any error while the output had failed with EPIPE', { error: new Error('aborted') }, epipe, 'output-closed', 0],
    ['an output that failed otherwise', { error: eacces }, eacces, 'failed', 1],
    ['bad usage', { error: new UsageError('--to 9 is below --from 10') }, undefined, 'failed', 2],
    ['a server error', { error: serverError }, undefined, 'failed', 3],
    ['retries exhausted', { error: new RetriesExhaustedError(3, new Error('down')) }, undefined, 'failed', 4],
    ['a local failure', { error: new Error('lock held') }, undefined, 'failed', 1],
  ];
  it.each(cases)('%s', (_name, failure, outputError, kind, exit) => expect(endOfRun(failure, outputError)).toMatchObject({ kind, exit }));
});

describe('takeUpdates', () => {
  it('stops after the N-th update, not counting checkpoints; without a limit it lets everything through', async () => {
    const elements = [cp(1), tx(2), cp(3), tx(4), tx(5), cp(6)];
    const offsets = async (limit: number | undefined) =>
      (await firstValueFrom(from(elements).pipe(takeUpdates(limit), toArray()))).map((e) => (e.update as { [k: string]: { value: { offset: number } } })[Object.keys(e.update)[0] as string]?.value.offset);
    expect(await offsets(2)).toEqual([1, 2, 3, 4]);
    expect(await offsets(1)).toEqual([1, 2]);
    expect(await offsets(undefined)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await offsets(2)).toEqual([1, 2, 3, 4]); // each subscription counts on its own
  });
});

describe('TailDelivery', () => {
  function fakeWriter(full: Set<number> = new Set()) {
    const lines: number[] = [];
    const writer: UpdateWriter & { lines: number[] } = {
      lines,
      get count() {
        return lines.length;
      },
      bytes: 0,
      error: undefined,
      write: (e) => {
        const offset = (Object.values(e.update as object)[0] as { value: { offset: number } }).value.offset;
        lines.push(offset);
        return !full.has(offset);
      },
      drained: () => Promise.resolve(),
      flush: () => Promise.resolve(),
    };
    return writer;
  }
  function memoryStore(failAt?: number): CheckpointStore & { saved: number[] } {
    const saved: number[] = [];
    return {
      saved,
      load: () => Promise.resolve(undefined),
      save: (c: Checkpoint) => (c.offset === failAt ? Promise.reject(new Error('disk full')) : (saved.push(c.offset), Promise.resolve())),
    };
  }

  it('writes each update once, passes unwritten checkpoints, and saves the position of what it delivered', async () => {
    const writer = fakeWriter(new Set([3]));
    const store = memoryStore();
    const delivery = new TailDelivery(writer, { descending: false, includeCheckpoints: false, checkpoint: { store, every: 2, everyMs: 0 } });
    const waits = [tx(2), tx(3), tx(3), cp(4), tx(2), tx(6)].map((e) => delivery.handler(e));
    expect(writer.lines).toEqual([2, 3, 6]);
    expect(waits[1]).toBeInstanceOf(Promise); // a full buffer makes the read wait for the drain
    expect(delivery.position).toBe(6);
    expect([delivery.firstOffset, delivery.lastOffset]).toEqual([2, 6]);
    await delivery.finish();
    expect(store.saved).toEqual([3, 6]); // every 2 delivered elements (2,3 then 4,6), and at the end
  });

  it('after a failed read, saves what was delivered and does not reject', async () => {
    const store = memoryStore();
    const delivery = new TailDelivery(fakeWriter(), { descending: false, includeCheckpoints: true, checkpoint: { store, every: 100, everyMs: 0 } });
    for (const e of [tx(1), cp(2)]) delivery.handler(e);
    await expect(delivery.abandon(new Error('read failed'))).resolves.toBeUndefined();
    expect(store.saved).toEqual([2]);
  });

  it('a failed save errors failure$ and finish()', async () => {
    const delivery = new TailDelivery(fakeWriter(), { descending: true, includeCheckpoints: false, checkpoint: { store: memoryStore(9), every: 1, everyMs: 0 } });
    const failure = firstValueFrom(delivery.failure$).catch((e: unknown) => e);
    delivery.handler(tx(9));
    expect(await failure).toMatchObject({ code: 'CHECKPOINT_STORE_FAILED' });
    await expect(delivery.finish()).rejects.toMatchObject({ code: 'CHECKPOINT_STORE_FAILED' });
  });
});
