import { ReplaySubject, type Observable } from 'rxjs';
import type { SignalSource, StopSignal } from './cli-io.js';
import type { Logger } from '../log/logger.js';
import { StopRequested } from './stop-requested.js';

/** The handle of {@link listenForStopSignals}. */
export interface StopSignals {
  /**
   * Emits once, at the first SIGINT/SIGTERM (or `stop()`), and completes. It replays: a subscriber that
   * comes after the stop (a read that starts late) still gets the emission, at once, when it subscribes.
   */
  readonly stop$: Observable<StopSignal | 'limit'>;
  /** Aborted at the stop: hand it to requests and waits of the start-up so they end promptly. */
  readonly signal: AbortSignal;
  /** Whether a stop was requested. */
  readonly stopped: boolean;
  /** Requests a stop from inside the program. */
  stop(reason?: StopSignal | 'limit'): void;
  /** Throws {@link StopRequested} when a stop was requested. */
  throwIfStopped(): void;
  /**
   * Resolves like `work`, or rejects with {@link StopRequested} as soon as a stop is requested (at once when
   * it already was). An abandoned `work` is left to finish on its own: its failure is ignored and its late
   * result is handed to `dispose` (to close a connection that nobody will use).
   */
  race<T>(work: Promise<T>, dispose?: (late: T) => unknown): Promise<T>;
  /** Removes the signal listeners. */
  dispose(): void;
}

/**
 * Turns SIGINT/SIGTERM into a graceful stop: the first signal emits on `stop$` (the command then
 * finishes the element in hand, flushes its output and checkpoint, and exits 0); a second signal calls
 * `force` (the commander layer exits at once with 130). Listeners are removed by `dispose()`.
 *
 * A stop may come at any moment, also while the command is still starting (connecting, resolving the
 * ledger end, waiting for a lock): `stop$` replays it to late subscribers, `signal` aborts, `stopped` turns
 * true, and `race` rejects, so the start-up can be abandoned and the command ends with exit 0.
 */
export function listenForStopSignals(signals: SignalSource, logger: Logger, force: () => void): StopSignals {
  const subject = new ReplaySubject<StopSignal | 'limit'>(1);
  const controller = new AbortController();
  let stopped = false;
  const stop = (reason: StopSignal | 'limit' = 'SIGTERM') => {
    if (stopped) return;
    stopped = true;
    controller.abort(new StopRequested());
    subject.next(reason);
    subject.complete();
  };
  const onSignal = (signal: StopSignal) => () => {
    if (stopped) {
      logger.warn({ signal }, 'second signal: exiting without flushing');
      force();
      return;
    }
    logger.info({ signal }, 'stopping: flushing the output and the checkpoint');
    stop(signal);
  };
  const onInt = onSignal('SIGINT');
  const onTerm = onSignal('SIGTERM');
  signals.on('SIGINT', onInt);
  signals.on('SIGTERM', onTerm);
  const throwIfStopped = () => {
    if (stopped) throw new StopRequested();
  };
  return {
    stop$: subject.asObservable(),
    signal: controller.signal,
    get stopped() {
      return stopped;
    },
    stop,
    throwIfStopped,
    race<T>(work: Promise<T>, dispose?: (late: T) => unknown): Promise<T> {
      if (stopped) {
        work.then((late) => dispose?.(late), () => undefined);
        return Promise.reject(new StopRequested());
      }
      return new Promise<T>((resolve, reject) => {
        let settled = false;
        const onAbort = () => {
          settled = true;
          reject(new StopRequested());
        };
        controller.signal.addEventListener('abort', onAbort, { once: true });
        work.then(
          (value) => {
            controller.signal.removeEventListener('abort', onAbort);
            if (settled) {
              Promise.resolve()
                .then(() => dispose?.(value))
                .catch(() => undefined);
            } else resolve(value);
          },
          (error: unknown) => {
            controller.signal.removeEventListener('abort', onAbort);
            if (!settled) reject(error);
          },
        );
      });
    },
    dispose() {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
    },
  };
}
