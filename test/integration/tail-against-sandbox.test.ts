import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, take, takeWhile, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore } from '../../src/checkpoints/index.js';
import { createLedgerClient, newCommandId, type LedgerClient } from '../../src/client/index.js';
import { updateFormat } from '../../src/filters/index.js';
import { readDescending, tailUpdates, trackCheckpoint, type TailStatus } from '../../src/operators/index.js';
import { startSandbox, type LedgerUpdate, type Sandbox } from '../../src/sandbox/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/index.js';
import { updateOffset } from '../../src/updates/update-offset.js';

let sandbox: Sandbox;
let client: LedgerClient;
let dir: string;
const format = updateFormat().transactions((t) => t.anyParty()).build();

const isCheckpoint = (e: JsGetUpdatesResponse) => 'OffsetCheckpoint' in e.update;
const offsetOf = (e: JsGetUpdatesResponse) => updateOffset(e) as number;

/** Offsets an any-party ACS-delta reader must see: transactions with an event in the ACS delta. */
function visible(log: LedgerUpdate[]): number[] {
  return log.filter((u) => u.kind === 'Transaction' && u.events.some((e) => e.acsDelta)).map((u) => u.offset);
}

function expectStrictlyIncreasing(offsets: number[]): void {
  for (let i = 1; i < offsets.length; i++) expect(offsets[i], `offset #${i}`).toBeGreaterThan(offsets[i - 1] as number);
}

beforeAll(async () => {
  // The real server's defaults: a 200-element cap and a 500 ms list wait; buffered answers.
  sandbox = await startSandbox({ seed: 450, checkpointIntervalMs: 200 });
  client = createLedgerClient({ baseUrl: sandbox.url });
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-tail-'));
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tailUpdates against the sandbox', () => {
  it('tails from 0 while transactions are submitted concurrently: every offset once, in order', async () => {
    const alice = sandbox.partyId('Alice');
    const bob = sandbox.partyId('Bob');
    const statuses: TailStatus[] = [];
    const delivered: JsGetUpdatesResponse[] = [];
    let submitting = true;
    let lastExpected = Number.POSITIVE_INFINITY;
    const submitted = (async () => {
      for (let i = 0; i < 60; i++) {
        await client.submit({
          commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: bob, currency: 'CHF', amount: `${i}.0000000000`, observers: [] } } }],
          commandId: newCommandId('concurrent'),
          actAs: [alice],
          userId: 'participant_admin',
        });
        if (i % 10 === 0) await new Promise((r) => setTimeout(r, 15));
      }
      submitting = false;
      lastExpected = visible(sandbox.updates()).at(-1) as number;
    })();
    await lastValueFrom(
      tailUpdates(client, { transport: 'list', updateFormat: format, onStatus: (s) => statuses.push(s) }).pipe(
        tap((e) => delivered.push(e)),
        takeWhile((e) => submitting || offsetOf(e) < lastExpected),
      ),
    );
    await submitted;
    const offsets = delivered.map(offsetOf);
    expectStrictlyIncreasing(offsets);
    expect(delivered.filter((e) => !isCheckpoint(e)).map(offsetOf)).toEqual(visible(sandbox.updates({ endInclusive: lastExpected })));
    expect(statuses.slice(0, 2)).toEqual([{ type: 'transport-selected', transport: 'list', requested: 'list' }, { type: 'resumed', fromOffset: 0, attempt: 0, transport: 'list' }]);
    expect(statuses.filter((s) => s.type === 'retrying')).toEqual([]);
  });

  it('stops at endInclusive, and resumes from a file checkpoint with no duplicate and no gap', async () => {
    const end = sandbox.ledgerEnd();
    const expected = visible(sandbox.updates({ endInclusive: end }));
    const store = new FileCheckpointStore(join(dir, 'resume.checkpoint'));
    const first = await lastValueFrom(
      tailUpdates(client, { transport: 'list', updateFormat: format, checkpointStore: store, endInclusive: end, pageLimit: 50 }).pipe(
        take(120),
        trackCheckpoint(store, { every: 7, everyMs: 0 }),
        toArray(),
      ),
    );
    expect((await store.load())?.offset).toBe(offsetOf(first.at(-1) as JsGetUpdatesResponse));
    const rest = await lastValueFrom(
      tailUpdates(client, { transport: 'list', updateFormat: format, checkpointStore: store, endInclusive: end, pageLimit: 50 }).pipe(trackCheckpoint(store), toArray()),
    );
    const all = [...first, ...rest].filter((e) => !isCheckpoint(e)).map(offsetOf);
    expect(all).toEqual(expected);
    expect((await store.load())?.offset).toBe(offsetOf(rest.at(-1) as JsGetUpdatesResponse));
  });

  it('lowers its page limit by itself when the server cap is below it', async () => {
    const small = await startSandbox({ seed: 40, maxListElements: 8 });
    const c = createLedgerClient({ baseUrl: small.url });
    try {
      const statuses: TailStatus[] = [];
      const got = await lastValueFrom(
        tailUpdates(c, { transport: 'list', updateFormat: format, endInclusive: small.ledgerEnd(), pageLimit: 64, onStatus: (s) => statuses.push(s) }).pipe(toArray()),
      );
      expect(got.map(offsetOf)).toEqual(visible(small.updates()));
      // A limit above the server cap (8) gets 413 whenever more than 8 elements remain; the 413 states the
      // cap ("… greater than the node limit (8)"), so the limit goes straight to it.
      expect(statuses.filter((s) => s.type === 'limit-lowered')).toEqual([{ type: 'limit-lowered', from: 64, to: 8 }]);
      expect(statuses.some((s) => s.type === 'retrying')).toBe(false);
    } finally {
      await c.close();
      await small.close();
    }
  });

  it('readDescending returns the same history newest first, page by page', async () => {
    const end = sandbox.ledgerEnd();
    const expected = visible(sandbox.updates({ endInclusive: end })).reverse();
    const got = await lastValueFrom(readDescending(client, { transport: 'list', updateFormat: format, endInclusive: end, pageLimit: 37 }).pipe(toArray()));
    expect(got.map(offsetOf)).toEqual(expected);
  });

  it('a slow async handler keeps the tail within one page (the next page waits for the handler)', async () => {
    const end = sandbox.ledgerEnd();
    let inFlight = 0;
    let maxInFlight = 0;
    const got = await lastValueFrom(
      tailUpdates(client, {
        transport: 'list', updateFormat: format,
        endInclusive: end,
        pageLimit: 20,
        handler: async () => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((r) => setTimeout(r, 1));
          inFlight--;
        },
      }).pipe(take(60), toArray()),
    );
    expect(maxInFlight).toBe(1);
    expectStrictlyIncreasing(got.map(offsetOf));
  });
});
