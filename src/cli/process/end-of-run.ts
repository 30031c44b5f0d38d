import { exitCodeFor } from './exit-code-for.js';
import { ExitCode } from './exit-code.js';
import { StopRequested } from './stop-requested.js';

/**
 * How a streaming command ended, decided from what ended it:
 * - `done`: the work finished (also a graceful stop during the read: the read completes on a stop);
 * - `stopped-early`: a stop (SIGINT/SIGTERM) abandoned the start-up, nothing was written;
 * - `output-closed`: the data output failed with EPIPE (the reader of the pipe went away: `| head`);
 * - `failed`: anything else, with the exit code of the error (see `exitCodeFor`).
 * Only `failed` is reported on stderr and exits non-zero.
 */
export type RunEnd =
  | { readonly kind: 'done'; readonly exit: typeof ExitCode.OK }
  | { readonly kind: 'stopped-early'; readonly exit: typeof ExitCode.OK }
  | { readonly kind: 'output-closed'; readonly exit: typeof ExitCode.OK }
  | { readonly kind: 'failed'; readonly exit: ExitCode; readonly error: unknown };

/**
 * Decides how a run ended (a pure function): `failure` is what the work threw (`undefined` when it
 * finished), `outputError` the error the data output kept, if any. A `StopRequested` is an early stop; a
 * failure while the output had failed with `EPIPE` is a closed output, whatever the error the read then
 * saw; every other failure is `failed`.
 */
export function endOfRun(failure: { readonly error: unknown } | undefined, outputError: Error | undefined): RunEnd {
  if (failure === undefined) return { kind: 'done', exit: ExitCode.OK };
  if (failure.error instanceof StopRequested) return { kind: 'stopped-early', exit: ExitCode.OK };
  if ((outputError as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return { kind: 'output-closed', exit: ExitCode.OK };
  return { kind: 'failed', exit: exitCodeFor(failure.error), error: failure.error };
}
