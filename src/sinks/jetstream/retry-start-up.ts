import type { SchedulerLike } from 'rxjs';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import { scheduledSleep } from '../scheduled-sleep.js';
import { jetStreamMayRecover } from './jetstream-may-recover.js';

/** One wait of a start-up step that failed in a way that may pass (reported before the wait). */
export interface StartUpWait {
  /** What was tried: "connect to nats://…", "read stream 'LEDGER'", … */
  readonly step: string;
  /** Failed attempts of this step so far (1 on the first wait). */
  readonly attempt: number;
  /** How long this step has been failing, in ms of the scheduler's time. */
  readonly waitedMs: number;
  /** The wait before the next attempt, in ms. */
  readonly delayMs: number;
  readonly error: unknown;
}

/** How {@link retryStartUp} retries. */
export interface StartUpRetryPolicy {
  /** Give up when a step has failed for this long, in ms. */
  readonly retryForMs: number;
  /** The clock and timer (default in the callers: `asyncScheduler`). */
  readonly scheduler: SchedulerLike;
  /** Aborts the attempt loop (between attempts) with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Called before each wait. */
  readonly onWaiting?: ((wait: StartUpWait) => void) | undefined;
  /** First wait, in ms; doubles up to 2 000. Default 100. */
  readonly initialDelayMs?: number | undefined;
  /** Where the cluster is, for the final error ("nats://a:4222,nats://b:4222"). */
  readonly where?: string | undefined;
}

/**
 * Runs one start-up request of a JetStream client (connect, a stream's info or creation, a consumer, the
 * stream's last message) until it succeeds, trying again after failures that may pass while a server or
 * cluster comes up (`jetStreamMayRecover(error, true)`: refused connections, timeouts, no responders, no
 * leader yet, peers not all up) with a doubling backoff from `initialDelayMs` to 2 s.
 *
 * Resolves with the first success. Rejects at once with a failure that cannot pass (as it is), with
 * `signal`'s reason when it aborts, and with `SINK_FAILED` once the step has failed for `retryForMs`: the
 * message names the step, the number of attempts, the time and the last error.
 */
export async function retryStartUp<T>(step: string, attempt: () => Promise<T>, policy: StartUpRetryPolicy): Promise<T> {
  const { scheduler, signal } = policy;
  const started = scheduler.now();
  let delay = policy.initialDelayMs ?? 100;
  for (let failures = 1; ; failures++) {
    signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (error) {
      signal?.throwIfAborted();
      if (!jetStreamMayRecover(error, true)) throw error;
      const waitedMs = scheduler.now() - started;
      if (waitedMs >= policy.retryForMs) {
        const where = policy.where === undefined ? 'JetStream' : `JetStream at ${policy.where}`;
        throw new LedgerRxError(
          ErrorCodes.SINK_FAILED,
          `${where} was not ready after ${waitedMs} ms: ${step} failed ${failures} time${failures === 1 ? '' : 's'} (last: ${describe(error)}); check that the servers run with JetStream and that a cluster has a quorum of its nodes up`,
          { cause: error },
        );
      }
      const delayMs = Math.min(delay, Math.max(1, policy.retryForMs - waitedMs));
      policy.onWaiting?.({ step, attempt: failures, waitedMs, delayMs, error });
      await scheduledSleep(scheduler, delayMs, signal);
      delay = Math.min(delay * 2, 2_000);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
