import type { TailStatus } from '../../operators/tail-status.js';
import { createCommandLogger } from '../log/create-command-logger.js';
import type { HumanLoggerOptions } from '../log/create-human-logger.js';
import type { LogLevel } from '../log/log-level.js';
import { statusLogger } from '../log/status-logger.js';
import type { DaemonMonitor } from '../monitoring/daemon-monitor.js';
import type { MonitoringOptions } from '../monitoring/monitoring-options.js';
import { startDaemonMonitor } from '../monitoring/start-daemon-monitor.js';
import { computeRunStats } from '../report/compute-run-stats.js';
import { ProgressLine } from '../report/progress-line.js';
import type { CliIo } from './cli-io.js';
import { describeError } from './describe-error.js';
import { endOfRun } from './end-of-run.js';
import type { ExitCode } from './exit-code.js';
import { listenForStopSignals } from './listen-for-stop-signals.js';
import type { RunTally, StreamingRun } from './streaming-run.js';

/** How {@link runStreamingCommand} reports. */
export interface StreamingCommandSettings {
  readonly logLevel?: LogLevel | undefined;
  /** Print the `--stats` JSON line on stderr at the end. */
  readonly stats?: boolean | undefined;
  /** What the start-up leads to, for the log line of a stop before it: "the read", "ingesting". */
  readonly activity: string;
  /** `--metrics-port` and its companions, and the `stream` label of the metrics. */
  readonly monitoring?: MonitoringOptions | undefined;
  readonly stream?: string | undefined;
  /**
   * Without `stats`, end a run that did not fail with one `info` log line saying what was done, in these
   * words: `ingested 1,234 updates (offsets 5–9,876) in 3.2 s`. Default: no such line.
   */
  readonly summary?: string | undefined;
  /** Log for people on a terminal, painted so (see `createCommandLogger`); default JSON lines. */
  readonly logPaint?: HumanLoggerOptions['paint'] | undefined;
}

/**
 * Runs the work of a long-running command (`tail`, `ingest`) inside the one shutdown sequence they share,
 * and resolves with the exit code (it never calls `process.exit` and never rejects):
 *
 * 1. before the work: the logger (erasing the progress line before each log line; for people on a
 *    terminal with `logPaint`), the stop signals, and with `monitoring.metricsPort` the daemon monitor
 *    (`/metrics`, `/healthz`, `/readyz`; a port that cannot be bound fails the run with exit 1; a stop
 *    signal makes it `stopping`);
 * 2. `work(run)` does the command, registering what to close, its counters, its output and its progress
 *    line on `run` (see {@link StreamingRun});
 * 3. the end is decided by `endOfRun`: an early stop and a closed output (EPIPE) are logged at `info`, a
 *    failure is described on stderr (the progress line erased first) and gives the exit code;
 * 4. the progress line and the ledger-end poll stop, the signal listeners are removed, and the registered
 *    closes run in reverse order (failures ignored);
 * 5. with `stats`, the `--stats` line (`computeRunStats`) goes to stderr, after everything was closed
 *    (without it, with `summary`, one log line of what was done, unless the run failed);
 *    the monitor closes last.
 */
export async function runStreamingCommand(io: CliIo, settings: StreamingCommandSettings, work: (run: StreamingRun) => Promise<void>): Promise<ExitCode> {
  let progress: ProgressLine | undefined;
  let endPoll: ReturnType<typeof setInterval> | undefined;
  const logger = createCommandLogger(io, settings.logLevel, () => progress?.clear(), settings.logPaint);
  const stops = listenForStopSignals(io.signals, logger, io.forceExit ?? (() => undefined));
  const startedAt = performance.now();
  const closes: (() => unknown)[] = [];
  let retries = 0;
  let transport: string | undefined;
  const noteTransport = (log: (status: TailStatus) => void) => (status: TailStatus) => {
    if (status.type === 'transport-selected') transport = status.transport;
    log(status);
  };
  let tally: () => RunTally = () => ({ count: 0, bytes: 0, firstOffset: undefined, lastOffset: undefined });
  let outputError: () => Error | undefined = () => undefined;
  let monitor: DaemonMonitor | undefined;
  const runWith = (watch: DaemonMonitor): StreamingRun => ({
    logger,
    stops,
    onStatus: watch.withStatus(noteTransport(statusLogger(logger, () => retries++))),
    monitor: watch,
    release: (close) => void closes.push(close),
    tally: (read) => void (tally = read),
    watchOutput: (error) => void (outputError = error),
    showProgress(read, ledgerEnd, look = {}) {
      let end: number | undefined;
      const line = new ProgressLine({
        out: io.stderr,
        read: () => ({ ...read(), ledgerEnd: end, transport }),
        ...(io.stderrColumns ? { columns: io.stderrColumns } : {}),
        ...(io.stderrRows ? { rows: io.stderrRows } : {}),
        ...(look.style ? { style: look.style } : {}),
      });
      progress = line;
      const poll = () => {
        ledgerEnd().then((e) => (end = e), () => undefined);
      };
      poll();
      endPoll = setInterval(poll, 1_000);
      endPoll.unref();
      return line;
    },
  });

  let failure: { error: unknown } | undefined;
  try {
    const watch = await startDaemonMonitor(settings.monitoring ?? {}, { stream: settings.stream ?? 'default', logger });
    monitor = watch;
    stops.stop$.subscribe(() => watch.setPhase('stopping'));
    await work(runWith(watch));
  } catch (error) {
    failure = { error };
  }
  const end = endOfRun(failure, outputError());
  if (end.kind === 'stopped-early') logger.info({}, `stopped before ${settings.activity} started; nothing written`);
  else if (end.kind === 'output-closed') logger.info({}, 'the output was closed; stopping');
  else if (end.kind === 'failed') {
    progress?.clear();
    io.stderr.write(`${describeError(end.error)}\n`);
  }
  if (endPoll) clearInterval(endPoll);
  progress?.stop();
  stops.dispose();
  for (const close of closes.reverse()) {
    try {
      await close();
    } catch {
      // a close that fails at the end changes nothing about what was done
    }
  }
  if (settings.stats) {
    const stats = computeRunStats({ ...tally(), elapsedMs: performance.now() - startedAt, retries, transport });
    io.stderr.write(`${JSON.stringify(stats)}\n`);
  } else if (settings.summary !== undefined && end.kind !== 'failed') {
    const stats = computeRunStats({ ...tally(), elapsedMs: performance.now() - startedAt, retries, transport });
    const n = (v: number) => v.toLocaleString('en-US');
    const range = stats.firstOffset === null || stats.lastOffset === null ? '' : ` (offsets ${n(stats.firstOffset)}–${n(stats.lastOffset)})`;
    logger.info(
      { count: stats.count, firstOffset: stats.firstOffset, lastOffset: stats.lastOffset, seconds: stats.seconds },
      `${settings.summary} ${n(stats.count)} ${stats.count === 1 ? 'update' : 'updates'}${range} in ${stats.seconds.toFixed(1)} s`,
    );
  }
  await monitor?.close();
  return end.exit;
}
