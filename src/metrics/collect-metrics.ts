import type { Counter as CounterType, Histogram as HistogramType, Registry } from 'prom-client';
import { firstValueFrom, from, type ObservableInput } from 'rxjs';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { CheckpointStore } from '../operators/checkpoint.js';
import type { DeliveredCounts, TailStatus } from '../operators/tail-status.js';
import type { GetLedgerEndResponse } from '../schemas/state.js';
import type { BatchCommit, LedgerRxMetrics } from './ledger-rx-metrics.js';
import { promClient } from './prom-client.js';

const { collectDefaultMetrics, Counter, Gauge, Histogram, register: defaultRegistry } = promClient;
type Counter<T extends string> = CounterType<T>;
type Histogram<T extends string> = HistogramType<T>;

/** Options of {@link collectMetrics}. */
export interface CollectMetricsOptions {
  /**
   * The `stream` label of every series, so that several reads in one process are told apart (a name you
   * choose, like an ingest's stream name; never a party or a contract). Default `'default'`. Two handles
   * with the same stream on one registry write the same series.
   */
  readonly stream?: string;
  /**
   * Also register prom-client's default process metrics (CPU, memory, event loop lag, GC; `process_*` and
   * `nodejs_*`; the event loop delay sampled every 100 ms) on the registry, unless they are there already.
   * Default `false`.
   */
  readonly processMetrics?: boolean;
  /**
   * Looked up when the registry is scraped (at most once a second, given up after 2 s) for the lag:
   * typically `() => client.ledgerEnd()`. Without it the ledger end is what the read and
   * `observeLedgerEnd` reported.
   */
  readonly ledgerEnd?: () => ObservableInput<GetLedgerEndResponse>;
  /** The clock of the lag in seconds, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * The daemon's readiness (typically `() => tracker.check()` of a `ReadinessTracker`), exported as
   * `ledger_rx_ready` (1 or 0) when scraped. Without it that series is absent.
   */
  readonly readiness?: () => { readonly ready: boolean };
}

/** Element kinds, the values of the `kind` label of `ledger_rx_elements_total`. */
const kinds = ['transaction', 'reassignment', 'topology', 'checkpoint', 'unknown'] as const satisfies readonly (keyof DeliveredCounts)[];

/** The per-stream state the gauges are computed from at scrape time. */
interface StreamState {
  position: number | undefined;
  ledgerEnd: number | undefined;
  recordTimeMs: number | undefined;
  pageLimit: number | undefined;
  lookup: (() => ObservableInput<GetLedgerEndResponse>) | undefined;
  readiness: (() => { readonly ready: boolean }) | undefined;
  lookedUpAt: number;
  pending: Promise<void> | undefined;
  now: () => number;
}

/** Every instrument, registered once per registry. */
interface Instruments {
  readonly streams: Map<string, StreamState>;
  readonly elements: Counter<'stream' | 'kind'>;
  readonly bytes: Counter<'stream' | 'transport'>;
  readonly requests: Counter<'stream' | 'transport' | 'outcome'>;
  readonly reconnects: Counter<'stream' | 'transport'>;
  readonly retries: Counter<'stream' | 'code'>;
  readonly pageElements: Histogram<'stream' | 'transport'>;
  readonly checkpointCommits: Counter<'stream' | 'outcome'>;
  readonly checkpointDuration: Histogram<'stream'>;
  readonly batchSize: Histogram<'stream'>;
  readonly commitDuration: Histogram<'stream'>;
}

const registries = new WeakMap<Registry, Instruments>();

const lookupEveryMs = 1_000;
const lookupTimeoutMs = 2_000;

/** Keeps label values bounded: an error code or a transport name of an unexpected form becomes `other`. */
function bounded(value: unknown, pattern: RegExp): string {
  return typeof value === 'string' && pattern.test(value) ? value : 'other';
}
const codePattern = /^[A-Z][A-Z0-9_]{0,63}$/;
const transportPattern = /^[a-z][a-z0-9-]{0,31}$/;

function errorCode(error: unknown): string {
  return bounded(typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined, codePattern);
}

/** Refreshes the stream's ledger end from its lookup, at most once a second; a failed lookup keeps the last. */
function refreshLedgerEnd(state: StreamState): Promise<void> {
  const lookup = state.lookup;
  if (!lookup || state.now() - state.lookedUpAt < lookupEveryMs) return state.pending ?? Promise.resolve();
  state.lookedUpAt = state.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, lookupTimeoutMs);
    timer.unref?.();
  });
  const done = Promise.resolve()
    .then(() => firstValueFrom(from(lookup())))
    .then(
      (end) => observeEnd(state, end.offset ?? 0),
      () => undefined,
    );
  state.pending = Promise.race([done, timeout]).finally(() => {
    clearTimeout(timer);
    state.pending = undefined;
  });
  return state.pending;
}

function observeEnd(state: StreamState, offset: number): void {
  if (Number.isSafeInteger(offset) && (state.ledgerEnd === undefined || offset > state.ledgerEnd)) state.ledgerEnd = offset;
}

/** The ledger end as best known: what was observed, and never below the position. */
function knownEnd(state: StreamState): number | undefined {
  if (state.ledgerEnd === undefined) return undefined;
  return state.position === undefined ? state.ledgerEnd : Math.max(state.ledgerEnd, state.position);
}

function lagOffsets(state: StreamState): number | undefined {
  const end = knownEnd(state);
  return end === undefined || state.position === undefined ? undefined : end - state.position;
}

function create(registry: Registry): Instruments {
  const streams = new Map<string, StreamState>();
  const registers = [registry];
  const eachStream = (set: (stream: string, state: StreamState) => void) => {
    for (const [stream, state] of streams) set(stream, state);
  };
  const refreshAll = () => Promise.all([...streams.values()].map(refreshLedgerEnd));
  new Gauge({
    name: 'ledger_rx_offset',
    help: 'The position of the read: the offset of the last element delivered (updates and offset checkpoints).',
    labelNames: ['stream'],
    registers,
    collect() {
      eachStream((stream, s) => {
        if (s.position !== undefined) this.set({ stream }, s.position);
      });
    },
  });
  new Gauge({
    name: 'ledger_rx_ledger_end_offset',
    help: "The participant's ledger end as last observed (never below the position).",
    labelNames: ['stream'],
    registers,
    async collect() {
      await refreshAll();
      eachStream((stream, s) => {
        const end = knownEnd(s);
        if (end !== undefined) this.set({ stream }, end);
      });
    },
  });
  new Gauge({
    name: 'ledger_rx_lag_offsets',
    help: 'Ledger end minus the position: how far behind the read is, in offsets.',
    labelNames: ['stream'],
    registers,
    async collect() {
      await refreshAll();
      eachStream((stream, s) => {
        const lag = lagOffsets(s);
        if (lag !== undefined) this.set({ stream }, lag);
      });
    },
  });
  new Gauge({
    name: 'ledger_rx_lag_seconds',
    help: 'Now minus the record time of the last element delivered; 0 while the read is at the ledger end.',
    labelNames: ['stream'],
    registers,
    async collect() {
      await refreshAll();
      eachStream((stream, s) => {
        if (lagOffsets(s) === 0) this.set({ stream }, 0);
        else if (s.recordTimeMs !== undefined) this.set({ stream }, Math.max(0, (s.now() - s.recordTimeMs) / 1000));
      });
    },
  });
  new Gauge({
    name: 'ledger_rx_ready',
    help: '1 while the daemon is ready (caught up or making progress), 0 while starting, a standby, retrying, stalled or stopping.',
    labelNames: ['stream'],
    registers,
    collect() {
      eachStream((stream, s) => {
        if (s.readiness) this.set({ stream }, s.readiness().ready ? 1 : 0);
      });
    },
  });
  new Gauge({
    name: 'ledger_rx_page_limit_elements',
    help: 'The page size (limit) the last request asked for; it adapts to the stream and drops after a 413.',
    labelNames: ['stream'],
    registers,
    collect() {
      eachStream((stream, s) => {
        if (s.pageLimit !== undefined) this.set({ stream }, s.pageLimit);
      });
    },
  });
  return {
    streams,
    elements: new Counter({ name: 'ledger_rx_elements_total', help: 'Elements delivered, by kind.', labelNames: ['stream', 'kind'], registers }),
    bytes: new Counter({ name: 'ledger_rx_read_bytes_total', help: 'Response body bytes read from the participant.', labelNames: ['stream', 'transport'], registers }),
    requests: new Counter({
      name: 'ledger_rx_requests_total',
      help: 'Requests to the participant that ended (pages, stream connections), by transport and outcome (ok, error, cancelled).',
      labelNames: ['stream', 'transport', 'outcome'],
      registers,
    }),
    reconnects: new Counter({
      name: 'ledger_rx_reconnects_total',
      help: 'Reads resumed after a failure, by transport.',
      labelNames: ['stream', 'transport'],
      registers,
    }),
    retries: new Counter({ name: 'ledger_rx_retries_total', help: 'Retryable failures, by error code.', labelNames: ['stream', 'code'], registers }),
    pageElements: new Histogram({
      name: 'ledger_rx_page_elements',
      help: 'Elements per request (page).',
      labelNames: ['stream', 'transport'],
      buckets: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    checkpointCommits: new Counter({
      name: 'ledger_rx_checkpoint_commits_total',
      help: 'Checkpoint saves (and ingest commits, which carry the checkpoint), by outcome (ok, error).',
      labelNames: ['stream', 'outcome'],
      registers,
    }),
    checkpointDuration: new Histogram({
      name: 'ledger_rx_checkpoint_commit_duration_seconds',
      help: 'Duration of successful checkpoint saves (and ingest commits).',
      labelNames: ['stream'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    batchSize: new Histogram({
      name: 'ledger_rx_ingest_batch_elements',
      help: 'Elements per committed ingest batch.',
      labelNames: ['stream'],
      buckets: [1, 5, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10000],
      registers,
    }),
    commitDuration: new Histogram({
      name: 'ledger_rx_ingest_commit_duration_seconds',
      help: 'Latency of an ingest batch commit (rows and checkpoint in one transaction).',
      labelNames: ['stream'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
  };
}

/** Parses an RFC 3339 record time to ms, or `undefined`. */
function recordTimeMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Registers ledger-rx's instruments on a prom-client `registry` (default: prom-client's global registry;
 * once per registry, shared by every stream) and returns the handle of one read, labelled `stream`.
 *
 * ```ts
 * import { Registry } from 'prom-client';
 * import { collectMetrics } from 'ledger-rx/metrics';
 *
 * const registry = new Registry();
 * const metrics = collectMetrics(registry, { stream: 'ious', ledgerEnd: () => client.ledgerEnd() });
 * tailUpdates(client, { updateFormat, checkpointStore: store, onStatus: metrics.onStatus })
 *   .pipe(trackCheckpoint(metrics.instrumentCheckpointStore(store)))
 *   .subscribe(handle);
 * // serve `await registry.metrics()` (content type `registry.contentType`) on /metrics
 * ```
 *
 * Series (all under `ledger_rx_`, units in the names, labels of bounded cardinality: `stream`, `kind`,
 * `transport`, `outcome`, error `code`): `elements_total{kind}` (transaction, reassignment, topology,
 * checkpoint, unknown), `read_bytes_total`, `requests_total{transport,outcome}`, `reconnects_total`,
 * `retries_total{code}`, `offset`, `ledger_end_offset`, `lag_offsets`, `lag_seconds`, `ready` (with `readiness`),
 * `page_limit_elements`, `page_elements` (histogram), `checkpoint_commits_total{outcome}`,
 * `checkpoint_commit_duration_seconds`, `ingest_batch_elements`, `ingest_commit_duration_seconds`
 * (histograms). The gauges are computed when the registry is scraped; the lag needs a ledger end (the
 * `ledgerEnd` option, `observeLedgerEnd`, or the read's own look-ups) and is absent until one is known.
 * Counting costs a few additions per request, nothing per element.
 *
 * @throws InvalidArgumentError when `stream` is empty or longer than 128 characters.
 */
export function collectMetrics(registry: Registry = defaultRegistry, options: CollectMetricsOptions = {}): LedgerRxMetrics {
  const stream = options.stream ?? 'default';
  if (typeof stream !== 'string' || stream.length === 0 || stream.length > 128) throw new InvalidArgumentError('stream', 'must be a non-empty string of at most 128 characters');
  let instruments = registries.get(registry);
  if (!instruments) {
    instruments = create(registry);
    registries.set(registry, instruments);
  }
  // the event loop delay is sampled every 100 ms, not every 10 (prom-client's default): 100 wake-ups a second
  // cost a daemon ~4 ms of CPU per second, a tenth of that is enough to see a blocked loop
  if (options.processMetrics && registry.getSingleMetric('process_cpu_seconds_total') === undefined) {
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  }
  const m = instruments;
  let state = m.streams.get(stream);
  if (!state) {
    state = { position: undefined, ledgerEnd: undefined, recordTimeMs: undefined, pageLimit: undefined, lookup: undefined, readiness: undefined, lookedUpAt: -Infinity, pending: undefined, now: Date.now };
    m.streams.set(stream, state);
  }
  const s = state;
  if (options.ledgerEnd) s.lookup = options.ledgerEnd;
  if (options.now) s.now = options.now;
  if (options.readiness) s.readiness = options.readiness;

  const elements = Object.fromEntries(kinds.map((kind) => [kind, m.elements.labels({ stream, kind })])) as Record<(typeof kinds)[number], ReturnType<typeof m.elements.labels>>;
  // every series starts at 0, so that rate() and increase() see the first elements
  for (const kind of kinds) elements[kind].inc(0);
  const commits = { ok: m.checkpointCommits.labels({ stream, outcome: 'ok' }), error: m.checkpointCommits.labels({ stream, outcome: 'error' }) };
  commits.ok.inc(0);
  const checkpointDuration = m.checkpointDuration.labels({ stream });
  const batchSize = m.batchSize.labels({ stream });
  const commitDuration = m.commitDuration.labels({ stream });

  const checkpointSaved = (durationMs: number, failed = false) => {
    if (failed) {
      commits.error.inc();
      return;
    }
    commits.ok.inc();
    checkpointDuration.observe(durationMs / 1000);
  };

  const onStatus = (status: TailStatus): void => {
    switch (status.type) {
      case 'progress': {
        const d = status.delivered;
        for (const kind of kinds) if (d[kind] > 0) elements[kind].inc(d[kind]);
        if (status.bytes > 0) m.bytes.inc({ stream, transport: bounded(status.transport, transportPattern) }, status.bytes);
        s.position = status.offset;
        const t = recordTimeMs(status.recordTime);
        if (t !== undefined) s.recordTimeMs = t;
        break;
      }
      case 'request': {
        const transport = bounded(status.transport, transportPattern);
        m.requests.inc({ stream, transport, outcome: status.outcome });
        if (status.outcome === 'ok') m.pageElements.observe({ stream, transport }, status.elements);
        if (status.limit !== undefined) s.pageLimit = status.limit;
        break;
      }
      case 'resumed':
        if (status.attempt > 0) m.reconnects.inc({ stream, transport: bounded(status.transport, transportPattern) });
        if (s.position === undefined || status.fromOffset > s.position) s.position = status.fromOffset;
        break;
      case 'retrying':
        m.retries.inc({ stream, code: errorCode(status.error) });
        break;
      case 'caught-up':
        observeEnd(s, status.offset);
        break;
      case 'ledger-end':
        observeEnd(s, status.offset);
        break;
      case 'limit-lowered':
        s.pageLimit = status.to;
        break;
      case 'idle-timeout-raised':
        break;
    }
  };

  return {
    stream,
    onStatus,
    observeLedgerEnd: (offset) => observeEnd(s, offset),
    checkpointSaved,
    batchCommitted(commit: BatchCommit) {
      batchSize.observe(commit.elements);
      commitDuration.observe(commit.durationMs / 1000);
      checkpointSaved(commit.durationMs);
    },
    instrumentCheckpointStore(store: CheckpointStore): CheckpointStore {
      return {
        load: () => store.load(),
        save: async (checkpoint) => {
          const started = performance.now();
          try {
            await firstValueFrom(from(store.save(checkpoint)), { defaultValue: undefined });
          } catch (error) {
            checkpointSaved(performance.now() - started, true);
            throw error;
          }
          checkpointSaved(performance.now() - started);
        },
      };
    },
  };
}
