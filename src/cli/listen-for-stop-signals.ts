import { Subject, type Observable } from 'rxjs';
import type { SignalSource, StopSignal } from './cli-io.js';
import type { Logger } from './logger.js';

/** The handle of {@link listenForStopSignals}. */
export interface StopSignals {
  /** Emits once, at the first SIGINT/SIGTERM (or `stop()`), and completes. */
  readonly stop$: Observable<StopSignal | 'limit'>;
  /** Whether a stop was requested. */
  readonly stopped: boolean;
  /** Requests a stop from inside the program. */
  stop(reason?: StopSignal | 'limit'): void;
  /** Removes the signal listeners. */
  dispose(): void;
}

/**
 * Turns SIGINT/SIGTERM into a graceful stop: the first signal emits on `stop$` (the command then
 * finishes the element in hand, flushes its output and checkpoint, and exits 0); a second signal calls
 * `force` (the commander layer exits at once with 130). Listeners are removed by `dispose()`.
 */
export function listenForStopSignals(signals: SignalSource, logger: Logger, force: () => void): StopSignals {
  const subject = new Subject<StopSignal | 'limit'>();
  let stopped = false;
  const stop = (reason: StopSignal | 'limit' = 'SIGTERM') => {
    if (stopped) return;
    stopped = true;
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
  return {
    stop$: subject.asObservable(),
    get stopped() {
      return stopped;
    },
    stop,
    dispose() {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
    },
  };
}
