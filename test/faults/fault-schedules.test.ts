import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { lastValueFrom, tap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCheckpointStore } from '../../src/checkpoints/index.js';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import { RetriesExhaustedError, type LedgerRxError } from '../../src/errors/index.js';
import { MemoryCheckpointStore } from '../../src/checkpoints/index.js';
import { allVettedPackages, readDescending, tailUpdates, trackCheckpoint, type TailStatus, type TailUpdatesConfig } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { uid } from '../../src/sandbox/state/ids.js';
import type { VettedPackages } from '../../src/schemas/index.js';
import { randomFaults, startFaultProxy, type CutPoint, type Fault, type FaultProxy } from '../support/fault-proxy.js';
import { diff, duplicates, elementOffset, expectedOffsets, firstDisorder, reportFigures, viewFormat, type TransactionView } from '../support/ledger-oracle.js';

/**
 * "Never lose, never duplicate, always resume" under random fault schedules: for each schedule the fault
 * proxy applies one fault per request (cuts at random bytes, stalls, 503/429/504/413 answers, an expired
 * token, sandbox restarts, connection resets), and the reads must still deliver exactly the ledger.
 */

const SEED = Number(process.env['LEDGER_RX_FAULT_SEED'] ?? 20260801);
const runs = (n: number) => Math.max(1, Math.round(n * Number(process.env['LEDGER_RX_FAULT_RUNS_SCALE'] ?? 1)));
const retry = { initialDelayMs: 1, maxDelayMs: 20, jitter: 0 };
const secret = 'fault-schedules-secret';

const figures = { schedules: 0, faultsApplied: 0, requests: 0, resumes: 0, delivered: 0, lost: 0, duplicated: 0, liveSchedules: 0, vettingSchedules: 0, descendingSchedules: 0, webSocketSchedules: 0, pageSchedules: 0 };

let sandbox: Sandbox;
let proxy: FaultProxy;
let dir: string;
let end: number;

/** Tokens for `reader`, a new one (distinct `exp`) after each expiry the proxy reports. */
function tokenSource(target: Sandbox, fp: FaultProxy): { provider: () => Promise<string>; generations: () => number } {
  let generation = 0;
  let cached: { generation: number; token: Promise<string> } | undefined;
  fp.onTokenExpired = () => generation++;
  return {
    provider: () => {
      if (cached?.generation !== generation) cached = { generation, token: target.token('reader', { expiresInSeconds: 3600 + generation }) };
      return cached.token;
    },
    generations: () => generation,
  };
}

async function addReader(target: Sandbox): Promise<void> {
  const admin = createLedgerClient({ baseUrl: target.url, token: await target.token('participant_admin') });
  await admin.createUser({ user: { id: 'reader', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }] });
  await admin.close();
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 150, synchronizers: 4, maxVettingPageSize: 3, authSecret: secret, listWaitMs: 20 });
  await addReader(sandbox);
  // enough vetting state for many pages: 5 more participants on each of the 4 synchronizers
  const packages = sandbox.state.packages.all().slice(0, 2).map((p) => ({ packageId: p.packageId }));
  for (const s of sandbox.state.synchronizers) {
    for (let k = 3; k < 8; k++) sandbox.state.vetting.set(s.id, uid(`participant${k}`, `extra-${k}`), { packages, serial: k });
  }
  end = sandbox.ledgerEnd();
  proxy = await startFaultProxy({ target: sandbox.url, restart: () => sandbox.restart() });
  dir = await mkdtemp(join(tmpdir(), 'ledger-rx-faults-'));
});

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
  reportFigures('fault-schedules', { seed: SEED, ...figures });
});

const cutPoint: fc.Arbitrary<CutPoint> = fc.oneof(
  fc.constant('random' as const),
  fc.nat({ max: 4000 }),
  fc.double({ min: 0, max: 1, noNaN: true }).map((fraction) => ({ fraction })),
);

/** One fault or a pass, for one request. */
const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  { arbitrary: fc.constant<Fault>({ kind: 'pass' }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('cut' as const), at: cutPoint, reset: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('stall-headers' as const), ms: fc.integer({ min: 0, max: 25 }), then: fc.constantFrom('pass' as const, 'cut' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('stall-body' as const), at: cutPoint, ms: fc.integer({ min: 0, max: 25 }), then: fc.constantFrom('pass' as const, 'cut' as const) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      status: fc.constantFrom(503 as const, 429 as const, 504 as const, 413 as const),
      retryInfo: fc.constantFrom('1 second', '5 milliseconds', '0 seconds'),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant<Fault>({ kind: 'expire-token' }), weight: 1 },
  { arbitrary: fc.constant<Fault>({ kind: 'restart' }), weight: 1 },
  { arbitrary: fc.constant<Fault>({ kind: 'reset' }), weight: 1 },
);

/** A fault schedule; an expiry right after an expiry would hit the client's one 401 retry, so it becomes a pass. */
const scheduleArb = fc.array(faultArb, { maxLength: 14 }).map((faults) =>
  faults.map((f, i) => (f.kind === 'expire-token' && faults[i - 1]?.kind === 'expire-token' ? ({ kind: 'pass' } as const) : f)),
);

const viewArb: fc.Arbitrary<TransactionView> = fc.oneof(
  fc.constant<TransactionView>({ parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' }),
  fc.constant<TransactionView>({ parties: 'any', shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }),
  fc.constantFrom('Alice', 'Bob', 'Charlie').map((hint): TransactionView => ({ parties: [`${hint}::PLACEHOLDER`], shape: 'TRANSACTION_SHAPE_ACS_DELTA' })),
  fc.constantFrom('Alice', 'Bob').map((hint): TransactionView => ({ parties: [`${hint}::PLACEHOLDER`], shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' })),
);
const resolveView = (target: Sandbox, v: TransactionView): TransactionView =>
  v.parties === 'any' ? v : { ...v, parties: v.parties.map((p) => target.partyId(p.slice(0, p.indexOf('::')))) };

/** Compares delivered offsets with the ledger, with a message that says what was lost or duplicated. */
function expectExactly(delivered: readonly number[], expected: readonly number[], label: string, descending = false): void {
  const { lost, extra } = diff(expected, delivered);
  const dup = duplicates(delivered);
  figures.lost += lost.length;
  figures.duplicated += dup.length;
  const problem = { lost: lost.slice(0, 10), extra: extra.slice(0, 10), duplicated: dup.slice(0, 10), disorderAt: firstDisorder(delivered, descending) };
  expect(problem, `${label} (fast-check seed ${SEED})`).toEqual({ lost: [], extra: [], duplicated: [], disorderAt: -1 });
  expect(delivered).toEqual(expected);
}

function record(fp: FaultProxy): void {
  figures.faultsApplied += fp.applied();
  figures.requests += fp.log.length;
}

/**
 * Reads `(0, endInclusive]` with tailUpdates + trackCheckpoint through the proxy. When retries run out
 * (`RetriesExhaustedError`, with tight `maxAttempts`), the checkpoint must hold the last delivered offset
 * and a new tail resumes from it, as a restarted consumer would.
 */
async function tailWithResume(
  client: LedgerClient,
  options: {
    view: TransactionView;
    endInclusive: number;
    pageLimit: number;
    store: MemoryCheckpointStore | FileCheckpointStore;
    every: number;
    maxAttempts: number;
    transport?: TailUpdatesConfig['transport'];
    /** Where the tail starts (default 0). */
    beginExclusive?: number;
    /** A slow reader: each element's handler takes this long (ms). */
    handlerDelayMs?: number;
    statuses?: TailStatus[];
  },
): Promise<{ delivered: number[]; checkpointsSeen: number[] }> {
  const delivered: number[] = [];
  const checkpointsSeen: number[] = [];
  for (let round = 0; ; round++) {
    try {
      await lastValueFrom(
        tailUpdates(client, {
          transport: options.transport ?? 'list',
          checkpointStore: options.store,
          beginExclusive: options.beginExclusive ?? 0,
          endInclusive: options.endInclusive,
          updateFormat: viewFormat(options.view),
          pageLimit: options.pageLimit,
          longPollMs: 200,
          pollIntervalMs: 20,
          pingIntervalMs: 50,
          silenceTimeoutMs: 300,
          retry: { ...retry, maxAttempts: options.maxAttempts },
          ...(options.handlerDelayMs === undefined ? {} : { handler: () => new Promise<void>((r) => setTimeout(r, options.handlerDelayMs)) }),
          ...(options.statuses === undefined ? {} : { onStatus: (s: TailStatus) => options.statuses?.push(s) }),
        }).pipe(
          tap((element) => {
            const offset = elementOffset(element) as number;
            if ('OffsetCheckpoint' in (element.update as object)) checkpointsSeen.push(offset);
            else delivered.push(offset);
          }),
          trackCheckpoint(options.store, { every: options.every, everyMs: 0 }),
        ),
        { defaultValue: undefined },
      );
      return { delivered, checkpointsSeen };
    } catch (error) {
      // the only acceptable failure: retries ran out on transient faults
      expect(error, `round ${round}: ${String(error)}`).toBeInstanceOf(RetriesExhaustedError);
      expect(((error as RetriesExhaustedError).cause as LedgerRxError).retryable).toBe(true);
      expect(round).toBeLessThan(60);
      figures.resumes++;
      const saved = await options.store.load();
      const last = Math.max(delivered.at(-1) ?? options.beginExclusive ?? 0, checkpointsSeen.at(-1) ?? 0);
      expect(saved?.offset ?? 0, 'on error the checkpoint holds the last delivered offset').toBe(last);
    }
  }
}

describe('tailUpdates under random fault schedules', () => {
  it('delivers exactly the ledger for the filter; the checkpoint ends at the last delivered offset', async () => {
    let run = 0;
    let schedules = 0;
    await fc.assert(
      fc.asyncProperty(
        scheduleArb,
        viewArb,
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom('memory' as const, 'file' as const),
        fc.constantFrom(1, 4, 25),
        fc.constantFrom(1, 2, 100),
        fc.integer(),
        async (schedule, rawView, pageLimit, storeKind, every, maxAttempts, cutSeed) => {
          const view = resolveView(sandbox, rawView);
          proxy.schedule(schedule, { seed: cutSeed });
          const tokens = tokenSource(sandbox, proxy);
          const client = createLedgerClient({ baseUrl: proxy.url, token: tokens.provider, timeoutMs: 5_000 });
          const store = storeKind === 'file' ? new FileCheckpointStore(join(dir, `tail-${run++}.json`)) : new MemoryCheckpointStore();
          try {
            const { delivered } = await tailWithResume(client, { view, endInclusive: end, pageLimit, store, every, maxAttempts });
            const expected = expectedOffsets(sandbox, view, { endInclusive: end });
            expectExactly(delivered, expected, `tail ${JSON.stringify({ schedule, view, pageLimit })}`);
            figures.delivered += delivered.length;
            expect((await store.load())?.offset).toBe(expected.at(-1));
            if (schedule.some((f) => f.kind === 'expire-token') && proxy.log.some((l) => l.fault === 'expire-token')) expect(tokens.generations()).toBeGreaterThan(0);
          } finally {
            await client.close();
            record(proxy);
            figures.schedules++;
            schedules++;
          }
        },
      ),
      { numRuns: runs(30), seed: SEED },
    );
    expect(schedules).toBe(runs(30)); // a fixed number of schedules, however slow the host
    expect(figures.faultsApplied).toBeGreaterThan(figures.schedules); // the schedules really hit the reads
  }, 120_000);

  it('delivers exactly the ledger while it grows (open-ended pages, live long polls, offset checkpoints)', async () => {
    const live = await startSandbox({ seed: 20, authSecret: secret, generate: 250, checkpointIntervalMs: 30, listWaitMs: 20 });
    const liveProxy = await startFaultProxy({ target: live.url, restart: () => live.restart() });
    let sawCheckpoints = 0;
    try {
      await addReader(live);
      await fc.assert(
        fc.asyncProperty(scheduleArb, fc.integer({ min: 1, max: 20 }), fc.integer(), async (schedule, pageLimit, cutSeed) => {
          const view: TransactionView = { parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' };
          liveProxy.schedule(schedule, { seed: cutSeed });
          const tokens = tokenSource(live, liveProxy);
          const client = createLedgerClient({ baseUrl: liveProxy.url, token: tokens.provider });
          const store = new MemoryCheckpointStore();
          const target = live.ledgerEnd() + 60;
          try {
            const { delivered, checkpointsSeen } = await tailWithResume(client, { view, endInclusive: target, pageLimit, store, every: 3, maxAttempts: 100 });
            expectExactly(delivered, expectedOffsets(live, view, { endInclusive: target }), `live tail ${JSON.stringify({ schedule, pageLimit })}`);
            expect(duplicates(checkpointsSeen)).toEqual([]);
            const all = [...delivered, ...checkpointsSeen].sort((a, b) => a - b);
            expect(duplicates(all)).toEqual([]);
            sawCheckpoints += checkpointsSeen.length;
            figures.delivered += delivered.length;
            expect((await store.load())?.offset).toBe(all.at(-1));
          } finally {
            await client.close();
            record(liveProxy);
            figures.schedules++;
            figures.liveSchedules++;
          }
        }),
        { numRuns: runs(8), seed: SEED + 1 },
      );
      expect(figures.liveSchedules).toBe(runs(8));
      expect(sawCheckpoints).toBeGreaterThan(0);
    } finally {
      await liveProxy.close();
      await live.close();
    }
  }, 90_000);
});

/** One WebSocket fault or a pass, for one upgrade. */
const wsFaultArb: fc.Arbitrary<Fault> = fc.oneof(
  { arbitrary: fc.constant<Fault>({ kind: 'pass' }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('ws-cut' as const), afterFrames: fc.nat({ max: 40 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('ws-close' as const), afterFrames: fc.nat({ max: 40 }), code: fc.constantFrom(1000 as const, 1001 as const, 1011 as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('ws-stall' as const), afterFrames: fc.nat({ max: 40 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('ws-token-expired' as const), afterFrames: fc.nat({ max: 40 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('status' as const), status: fc.constantFrom(503 as const, 429 as const), retryInfo: fc.constant('5 milliseconds') }), weight: 1 },
  { arbitrary: fc.constant<Fault>({ kind: 'expire-token' }), weight: 1 },
  { arbitrary: fc.constant<Fault>({ kind: 'restart' }), weight: 1 },
  { arbitrary: fc.constant<Fault>({ kind: 'reset' }), weight: 1 },
);

/** A WebSocket fault schedule; as for {@link scheduleArb}, no expiry right after an expiry (the client retries a 401 once). */
const wsScheduleArb = fc.array(wsFaultArb, { maxLength: 10 }).map((faults) =>
  faults.map((f, i) => (f.kind === 'expire-token' && faults[i - 1]?.kind === 'expire-token' ? ({ kind: 'pass' } as const) : f)),
);

describe('the other transports under random fault schedules, while the ledger grows: every offset once, in order', () => {
  let live: Sandbox;
  let liveProxy: FaultProxy;
  beforeAll(async () => {
    live = await startSandbox({ seed: 40, authSecret: secret, generate: 250, checkpointIntervalMs: 30 });
    liveProxy = await startFaultProxy({ target: live.url, restart: () => live.restart() });
    await addReader(live);
  });
  afterAll(async () => {
    await liveProxy?.close();
    await live?.close();
  });

  /** One scheduled live tail of `transport` through the proxy, checked against the ledger. */
  async function liveTail(transport: 'websocket' | 'page' | 'auto', handlerDelayMs: number | undefined, statuses: TailStatus[] = []): Promise<void> {
    const view: TransactionView = { parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' };
    const tokens = tokenSource(live, liveProxy);
    const client = createLedgerClient({ baseUrl: liveProxy.url, token: tokens.provider });
    const store = new MemoryCheckpointStore();
    // from a little behind the ledger end (a catch-up of ~150 updates) to ~60 offsets ahead (live)
    const begin = Math.max(0, live.ledgerEnd() - 300);
    const target = live.ledgerEnd() + 60;
    try {
      const { delivered, checkpointsSeen } = await tailWithResume(client, { view, beginExclusive: begin, endInclusive: target, pageLimit: 25, store, every: 3, maxAttempts: 100, transport, statuses, ...(handlerDelayMs === undefined ? {} : { handlerDelayMs }) });
      expectExactly(delivered, expectedOffsets(live, view, { beginExclusive: begin, endInclusive: target }), `${transport} tail`);
      const all = [...delivered, ...checkpointsSeen].sort((a, b) => a - b);
      expect(duplicates(all)).toEqual([]);
      expect((await store.load())?.offset).toBe(all.at(-1));
      figures.delivered += delivered.length;
    } finally {
      await client.close();
      record(liveProxy);
      figures.schedules++;
    }
  }

  it('websocket: cuts mid-frame (1006), closes 1000/1001/1011, server restarts, stalls, expired tokens (401 upgrades, error frames), a slow reader', async () => {
    let schedules = 0;
    await fc.assert(
      fc.asyncProperty(wsScheduleArb, fc.constantFrom(undefined, 0, 1), async (schedule, handlerDelayMs) => {
        liveProxy.schedule(schedule, { match: (method, path) => method === 'GET' && path.startsWith('/v2/updates') });
        await liveTail('websocket', handlerDelayMs);
        schedules++;
      }),
      { numRuns: runs(8), seed: SEED + 3 },
    );
    expect(schedules).toBe(runs(8));
    figures.webSocketSchedules += schedules;
  }, 90_000);

  it('page: cut bodies, stalls, 503/429/504/413, an expired token, restarts, resets', async () => {
    let schedules = 0;
    await fc.assert(
      fc.asyncProperty(scheduleArb, fc.constantFrom(undefined, 1), async (schedule, handlerDelayMs) => {
        liveProxy.schedule(schedule, { match: (_method, path) => path.startsWith('/v2/updates/get-updates-page') });
        await liveTail('page', handlerDelayMs);
        schedules++;
      }),
      { numRuns: runs(6), seed: SEED + 5 },
    );
    expect(schedules).toBe(runs(6));
    figures.pageSchedules += schedules;
  }, 60_000);

  it("auto: a participant that refuses the WebSocket (and then the paged read) is read over what it offers, under faults", async () => {
    for (const refusals of [[404], [426, 404]] as const) {
      const statuses: TailStatus[] = [];
      let upgrades = 0;
      let pages = 0;
      liveProxy.schedule((_i, r) => {
        if (r.method === 'GET' && r.path.startsWith('/v2/updates')) return upgrades++ === 0 ? { kind: 'refuse', status: refusals[0] } : { kind: 'pass' };
        if (r.path.startsWith('/v2/updates/get-updates-page')) {
          pages++;
          if (refusals[1] !== undefined) return { kind: 'refuse', status: refusals[1] };
          return pages % 3 === 2 ? { kind: 'cut', at: 'random' } : { kind: 'pass' };
        }
        if (r.path.startsWith('/v2/updates')) return pages++ % 4 === 3 ? { kind: 'status', status: 503 } : { kind: 'pass' };
        return { kind: 'pass' };
      });
      await liveTail('auto', undefined, statuses);
      const chosen = statuses.filter((s) => s.type === 'transport-selected').map((s) => (s.type === 'transport-selected' ? s.transport : ''));
      expect(chosen).toEqual(refusals.length === 1 ? ['websocket', 'page'] : ['websocket', 'page', 'list']);
      expect(upgrades).toBe(1); // once refused, the WebSocket is not asked again in this subscription
    }
  }, 60_000);
});

describe('a seeded random fault policy over a whole read', () => {
  it('tailUpdates with a fault on about a third of all requests still delivers exactly the ledger', async () => {
    for (const seed of [SEED, SEED + 7, SEED + 13]) {
      proxy.schedule(randomFaults({ seed, rate: 0.35 }), { seed });
      const tokens = tokenSource(sandbox, proxy);
      const client = createLedgerClient({ baseUrl: proxy.url, token: tokens.provider });
      const store = new MemoryCheckpointStore();
      const view: TransactionView = { parties: 'any', shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' };
      try {
        const { delivered } = await tailWithResume(client, { view, endInclusive: end, pageLimit: 10, store, every: 5, maxAttempts: 3 });
        expectExactly(delivered, expectedOffsets(sandbox, view, { endInclusive: end }), `random policy seed ${seed}`);
        figures.delivered += delivered.length;
        expect(proxy.applied()).toBeGreaterThan(3);
      } finally {
        await client.close();
        record(proxy);
        figures.schedules++;
      }
    }
  }, 60_000);
});

describe('readDescending under random fault schedules', () => {
  /** A transport, and a schedule of the faults that transport can meet. */
  const transportScheduleArb = fc.oneof(
    fc.tuple(fc.constant('list' as const), scheduleArb),
    fc.tuple(fc.constant('page' as const), scheduleArb),
    fc.tuple(fc.constant('websocket' as const), wsScheduleArb),
  );
  const transports = new Set<string>();

  it('delivers exactly the ledger, newest first, over each transport', async () => {
    await fc.assert(
      fc.asyncProperty(transportScheduleArb, viewArb, fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 40 }), fc.integer(), async ([transport, schedule], rawView, pageLimit, begin, cutSeed) => {
        const view = resolveView(sandbox, rawView);
        proxy.schedule(schedule, { seed: cutSeed });
        transports.add(transport);
        const tokens = tokenSource(sandbox, proxy);
        const client = createLedgerClient({ baseUrl: proxy.url, token: tokens.provider });
        const statuses: TailStatus[] = [];
        try {
          const delivered: number[] = [];
          await lastValueFrom(
            readDescending(client, { transport, updateFormat: viewFormat(view), endInclusive: end, beginExclusive: begin, pageLimit, retry: { ...retry, maxAttempts: 100 }, onStatus: (s) => statuses.push(s), pingIntervalMs: 50, silenceTimeoutMs: 300 }).pipe(
              tap((e) => delivered.push(elementOffset(e) as number)),
            ),
            { defaultValue: undefined },
          );
          expectExactly(delivered, expectedOffsets(sandbox, view, { beginExclusive: begin, endInclusive: end }).reverse(), `descending ${JSON.stringify({ transport, schedule, pageLimit, begin })}`, true);
          figures.delivered += delivered.length;
        } finally {
          await client.close();
          record(proxy);
          figures.schedules++;
          figures.descendingSchedules++;
        }
      }),
      { numRuns: runs(20), seed: SEED + 2 },
    );
    expect(figures.descendingSchedules).toBe(runs(20));
    if (runs(20) >= 10) expect([...transports].sort()).toEqual(['list', 'page', 'websocket']);
  }, 90_000);
});

describe('allVettedPackages under random fault schedules', () => {
  const key = (v: VettedPackages) => `${v.synchronizerId}|${v.participantId}`;

  it('every walk, retrying failed pages, yields the clean walk exactly: every pair once, in order, nothing lost', async () => {
    const clean = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('reader') });
    const truth: string[] = [];
    await new Promise<void>((resolve, reject) => clean.listAllVettedPackages({ pageSize: 1 }).subscribe({ next: (v) => truth.push(key(v)), error: reject, complete: resolve }));
    await clean.close();
    const pairs = sandbox.state.vetting.entries().map((e) => `${e.synchronizerId}|${e.participantId}`);
    expect([...truth].sort()).toEqual([...pairs].sort()); // every pair of the state, exactly once
    expect(truth.length).toBeGreaterThanOrEqual(20);

    await fc.assert(
      fc.asyncProperty(scheduleArb, fc.integer({ min: 0, max: 3 }), fc.integer(), async (schedule, pageSize, cutSeed) => {
        proxy.schedule(schedule, { seed: cutSeed });
        const tokens = tokenSource(sandbox, proxy);
        const client = createLedgerClient({ baseUrl: proxy.url, token: tokens.provider });
        try {
          const got: string[] = [];
          const outcome = await new Promise<unknown>((resolve) =>
            allVettedPackages(client, { pageSize }, { retry: { initialDelayMs: 5, maxDelayMs: 50, maxAttempts: 30, jitter: 0 } })
              .subscribe({ next: (v) => got.push(key(v)), error: resolve, complete: () => resolve('complete') }),
          );
          expect(outcome, String(outcome)).toBe('complete');
          expect(got).toEqual(truth);
          const lost = truth.filter((k) => !got.includes(k)).length;
          const twice = got.length - new Set(got).size;
          figures.lost += lost;
          figures.duplicated += twice;
          figures.delivered += got.length;
        } finally {
          await client.close();
          record(proxy);
          figures.schedules++;
          figures.vettingSchedules++;
        }
      }),
      { numRuns: runs(20), seed: SEED + 3 },
    );
    expect(figures.vettingSchedules).toBe(runs(20));
  }, 90_000);
});
