import type { Logger } from '../log/logger.js';
import type { DaemonMonitor } from './daemon-monitor.js';
import type { MonitoringOptions } from './monitoring-options.js';

const unmonitored: DaemonMonitor = {
  url: undefined,
  withStatus: (next) => next,
  watchLedgerEnd: () => undefined,
  setPhase: () => undefined,
  batchCommitted: () => undefined,
  instrumentCheckpointStore: (store) => store,
  close: () => Promise.resolve(),
};

/**
 * How often the ledger end is looked up for the lag and the stall check: a request (and its validation)
 * per look-up is most of what metrics cost by the clock, so not every second.
 */
const ledgerEndEveryMs = 5_000;

/**
 * Starts the monitoring of a daemon command (`tail`, `ingest`): with `metricsPort`, a `ledger-rx/metrics`
 * server on `metricsHost` (default 127.0.0.1) serving `/metrics` (every `ledger_rx_` series with the
 * `stream` label, `ledger_rx_ready`, and the process metrics), `/healthz` and `/readyz` (a
 * `ReadinessTracker` with `stallAfterSeconds`, default 60); the URL is logged. Start it first, so that
 * `/healthz` answers during the start-up and `/readyz` says `starting` (or `standby`).
 *
 * Without `metricsPort` it returns a monitor that does nothing, and prom-client is never loaded.
 * Rejects (exit 1) when the port cannot be bound.
 */
export async function startDaemonMonitor(options: MonitoringOptions, context: { readonly stream: string; readonly logger: Logger }): Promise<DaemonMonitor> {
  if (options.metricsPort === undefined) return unmonitored;
  const [{ collectMetrics, ReadinessTracker, startMetricsServer }, { Registry }] = await Promise.all([import('../../metrics/index.js'), import('prom-client')]);
  const registry = new Registry();
  const readiness = new ReadinessTracker({ stallAfterMs: (options.stallAfterSeconds ?? 60) * 1000 });
  const metrics = collectMetrics(registry, { stream: context.stream, processMetrics: true, readiness: () => readiness.check() });
  const host = options.metricsHost ?? '127.0.0.1';
  let server;
  try {
    server = await startMetricsServer({ registry, readiness: () => readiness.check(), host, port: options.metricsPort });
  } catch (error) {
    throw new Error(`cannot serve metrics on ${host}:${options.metricsPort}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  context.logger.info({ url: server.url }, 'serving /metrics, /healthz and /readyz');
  let poll: ReturnType<typeof setInterval> | undefined;
  const observe = (offset: number) => {
    metrics.observeLedgerEnd(offset);
    readiness.observeLedgerEnd(offset);
  };
  const onStatus = (status: Parameters<typeof metrics.onStatus>[0]) => {
    metrics.onStatus(status);
    readiness.onStatus(status);
  };
  const s = server;
  let closed: Promise<void> | undefined;
  return {
    url: s.url,
    withStatus: (next) => (status) => {
      onStatus(status);
      next(status);
    },
    watchLedgerEnd(lookup) {
      if (poll) clearInterval(poll);
      let inFlight = false;
      const tick = () => {
        if (inFlight) return;
        inFlight = true;
        lookup().then(
          (end) => observe(end.offset ?? 0),
          () => undefined,
        ).finally(() => (inFlight = false));
      };
      tick();
      poll = setInterval(tick, ledgerEndEveryMs);
      poll.unref();
    },
    setPhase: (phase) => readiness.setPhase(phase),
    batchCommitted: (commit) => metrics.batchCommitted(commit),
    instrumentCheckpointStore: (store) => metrics.instrumentCheckpointStore(store),
    close: () => {
      if (poll) clearInterval(poll);
      poll = undefined;
      return (closed ??= s.close());
    },
  };
}
