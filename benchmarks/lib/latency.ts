/**
 * The live-latency measurement shared by the tail and publish benchmarks: Iou creates submitted at a steady
 * rate with recognisable command ids, and the latency of each from the moment its submit was accepted (or
 * sent) to the moment the reader under test saw the transaction.
 */
import type { Observable } from 'rxjs';
import type { JsGetUpdatesResponse, LedgerClient } from 'ledger-rx';
import { log } from './args.js';

/** What one latency run measured. */
export interface LatencySample {
  readonly submitted: number;
  readonly seen: number;
  /** submit resolved → seen, ms, clamped at 0, in submission order. */
  readonly latencies: readonly number[];
  /** submit sent → seen, ms. */
  readonly fromSend: readonly number[];
  /** Transactions seen before their submit's answer arrived (counted as 0 in `latencies`). */
  readonly early: number;
}

/** The command id of a transaction element, if it has one. */
export function commandIdOf(element: JsGetUpdatesResponse): string | undefined {
  const tx = (element.update as { Transaction?: { value?: { commandId?: string } } }).Transaction;
  return tx?.value?.commandId;
}

/**
 * Submits `count` Iou creates (Alice to Alice) at `rate` per second, command ids `<run>-<i>`; resolves with
 * when each was sent and accepted (`performance.now()`), once every submit has been answered.
 */
export async function submitAtRate(
  client: LedgerClient,
  options: { readonly count: number; readonly rate: number; readonly run: string },
): Promise<{ sentAt: Map<string, number>; acceptedAt: Map<string, number> }> {
  const parties = await client.listParties();
  const alice = parties.partyDetails.find((p) => p.party.startsWith('Alice::'))?.party;
  if (alice === undefined) throw new Error('no Alice party on the sandbox');
  const sentAt = new Map<string, number>();
  const acceptedAt = new Map<string, number>();
  const submissions: Promise<void>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < options.count; i++) {
    const wait = t0 + (i * 1000) / options.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const commandId = `${options.run}-${i}`;
    sentAt.set(commandId, performance.now());
    submissions.push(
      client
        .submit({
          commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '10.0000000000', observers: [] } } }],
          commandId,
          actAs: [alice],
          userId: 'participant_admin',
        })
        .then(() => {
          acceptedAt.set(commandId, performance.now());
        }),
    );
  }
  await Promise.all(submissions);
  return { sentAt, acceptedAt };
}

/**
 * One latency run: subscribes to `reader` (the reader under test, e.g. a tail or a JetStream consumer),
 * waits for `ready`, submits `count` transactions at `rate`/s and waits (at most 10 s after the last
 * answer) until `reader` has seen them all. `label` names the reader in the log when it fails.
 */
export async function measureLatency(
  client: LedgerClient,
  reader: Observable<JsGetUpdatesResponse>,
  options: { readonly count: number; readonly rate: number; readonly ready: Promise<void>; readonly label: string },
): Promise<LatencySample> {
  const { count } = options;
  const run = `lat-${process.pid}-${Date.now()}`;
  const seenAt = new Map<string, number>();
  let allSeen!: () => void;
  const done = new Promise<void>((resolve) => (allSeen = resolve));
  const subscription = reader.subscribe({
    next: (element) => {
      const id = commandIdOf(element);
      if (id === undefined || !id.startsWith(run)) return;
      seenAt.set(id, performance.now());
      if (seenAt.size === count) allSeen();
    },
    error: (e: unknown) => {
      log(`${options.label}: the reader failed: ${String(e)}`);
      allSeen();
    },
  });
  await options.ready;
  const { sentAt, acceptedAt } = await submitAtRate(client, { count, rate: options.rate, run });
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  subscription.unsubscribe();
  return latencySample(count, run, { sentAt, acceptedAt, seenAt });
}

/** The latencies of the submissions `<run>-0 … <run>-<count-1>` from their send/accept times and when they were seen. */
export function latencySample(
  count: number,
  run: string,
  times: { readonly sentAt: ReadonlyMap<string, number>; readonly acceptedAt: ReadonlyMap<string, number>; readonly seenAt: ReadonlyMap<string, number> },
): LatencySample {
  const latencies: number[] = [];
  const fromSend: number[] = [];
  let early = 0;
  for (let i = 0; i < count; i++) {
    const id = `${run}-${i}`;
    const seen = times.seenAt.get(id);
    const accepted = times.acceptedAt.get(id);
    const sent = times.sentAt.get(id);
    if (seen === undefined || accepted === undefined || sent === undefined) continue;
    if (seen < accepted) early++;
    latencies.push(Math.max(0, seen - accepted));
    fromSend.push(seen - sent);
  }
  return { submitted: count, seen: times.seenAt.size, latencies, fromSend, early };
}

/** Counts of latencies per bucket (ms upper bounds). */
export function histogram(values: readonly number[]): Record<string, number> {
  const bounds = [1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, Infinity];
  const out: Record<string, number> = {};
  for (const b of bounds) out[`≤${b}`] = 0;
  for (const v of values) {
    const b = bounds.find((x) => v <= x) as number;
    out[`≤${b}`] = (out[`≤${b}`] ?? 0) + 1;
  }
  return out;
}
