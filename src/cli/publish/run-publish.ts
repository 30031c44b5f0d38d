import { JetStreamSink, type JetStreamSinkStatus } from '../../sinks/jetstream/jetstream-sink.js';
import type { Logger } from '../log/logger.js';
import type { CliIo } from '../process/cli-io.js';
import type { ExitCode } from '../process/exit-code.js';
import { runStreamingCommand } from '../process/run-streaming-command.js';
import { drainIntoSink } from '../sink/drain-into-sink.js';
import type { PublishOptions } from './publish-options.js';

function logStatus(logger: Logger, status: JetStreamSinkStatus, rivals: Set<string>): void {
  switch (status.type) {
    case 'rival':
      // once per rival: a later publisher's copies keep coming until it is refused
      if (!rivals.has(status.who)) logger.warn({ offset: status.offset, rival: status.who }, 'a publisher that started later stored the same message first: it will be refused, this one carries on');
      rivals.add(status.who);
      break;
    case 'stream-created':
      logger.info({ stream: status.stream, subjects: status.subjects, replicas: status.replicas }, 'stream created');
      break;
    case 'stream-found':
      logger.info({ stream: status.stream, subjects: status.subjects, replicas: status.replicas, messages: status.messages }, 'stream found');
      break;
    case 'stream-shared':
      logger.warn({ stream: status.stream, subjects: status.subjects }, 'the stream also captures other subjects: publishing one message at a time');
      break;
    case 'stream-differs':
      logger.warn({ stream: status.stream, setting: status.setting, wanted: status.wanted, actual: status.actual }, 'the existing stream differs from the flags (kept as it is)');
      break;
    case 'resuming':
      logger.info({ lastSeq: status.tip?.seq ?? 0, lastOffset: status.tip?.offset ?? null }, "the stream's last message");
      break;
    case 'recovering':
      logger.warn({ err: status.error, inFlight: status.inFlight }, 'a publish failed: recovering from the stream');
      break;
    case 'resynced':
      logger.info({ lastSeq: status.tip?.seq ?? 0, lastOffset: status.tip?.offset ?? null, republish: status.republish, attempt: status.attempt }, 'resumed publishing after the stream\'s last message');
      break;
    case 'waiting':
      logger.warn(
        { step: status.step, attempt: status.attempt, waitedMs: status.waitedMs, nextInMs: status.delayMs, err: status.error },
        `waiting for the JetStream cluster: ${status.step} failed (${status.error instanceof Error ? status.error.message : String(status.error)}); trying again`,
      );
      break;
    case 'connection':
      logger.info({ event: status.event, server: status.server }, `NATS ${status.event}`);
      break;
  }
}

/**
 * `ledger-rx publish`: publishes the participant's updates to a NATS JetStream stream, exactly once with no
 * other store, and resolves with the exit code (it never calls `process.exit`).
 *
 * A `JetStreamSink` creates the stream when missing (`replicas`, `maxAgeMs`, `maxBytes`, file storage) or
 * checks it, and resumes after the offset in the stream's last message (`from` only applies to an empty
 * stream). Each element goes out with the server's bytes to `<subjectPrefix>.<kind>.<package>.<Module>.<Entity>`
 * (see `ledgerSubject`), with `Nats-Msg-Id` `<stream>:<offset>` and the ledger headers, `window` publishes
 * in flight, each expecting its predecessor's stream sequence: a second publisher on the stream fails with
 * `SINK_CONFLICT` (exit 1), a server restart or leader change is recovered from the stream's tip without
 * reordering. Elements are grouped into batches (`batch` / `batchMs`) whose acknowledgements are awaited
 * together, so the read waits when the window is full.
 *
 * Range, stops, monitoring (`--metrics-port`: the read's series, each acknowledged batch as a commit) and
 * exit codes as for `ingest`: SIGINT/SIGTERM wait for the acknowledgements of what was published and exit 0.
 *
 * Start-up waits for the NATS servers and the JetStream cluster (connect, the stream's info or creation,
 * its last message), each request tried for `retryForMs` with a "waiting for the JetStream cluster" line
 * per wait, so a publisher started together with its cluster waits for it instead of exiting.
 */
export function runPublish(options: PublishOptions, io: CliIo): Promise<ExitCode> {
  const settings = { logLevel: options.logLevel, stats: options.stats, activity: 'publishing', summary: 'published', monitoring: options.monitoring, stream: options.stream };
  return runStreamingCommand(io, settings, async (run) => {
    const { logger } = run;
    const rivals = new Set<string>();
    const openSink = () =>
      JetStreamSink.connect({
          servers: options.nats,
          credsFile: options.natsCreds,
          name: `ledger-rx publish ${options.stream}`,
          stream: options.stream,
          subjectPrefix: options.subjectPrefix,
          create: { replicas: options.replicas, maxAgeMs: options.maxAgeMs, maxBytes: options.maxBytes },
          window: options.window,
          ackTimeoutMs: options.ackTimeoutMs,
          retryForMs: options.retryForMs,
          checkpoints: options.includeCheckpoints,
          onStatus: (status) => logStatus(logger, status, rivals),
          signal: run.stops.signal,
        });
    await drainIntoSink(options, io, run, openSink, { activity: 'publishing', defaultBatch: 256, defaultBatchMs: 5 });
  });
}
