/**
 * Thrown by {@link StopSignals.race} (and by waits that honour the stop's `AbortSignal`) when SIGINT/SIGTERM
 * arrived before the awaited work finished: the command abandons its start-up and ends gracefully with
 * exit 0, having written nothing. It is never an error the user sees.
 */
export class StopRequested extends Error {
  override name = 'StopRequested';

  constructor(message = 'stopped by a signal before the read started') {
    super(message);
  }
}
