import type { UnreachableReason } from './unreachable-reason.js';

/**
 * A command's start-up gave up: its first request found no participant (a refused connection or an unknown
 * host) for the whole start-up bound. The message is the one line the command prints: what was tried, for
 * how long, what to check. Exit code 4, as retries exhausted.
 */
export class ParticipantUnreachableError extends Error {
  override name = 'ParticipantUnreachableError';

  constructor(
    /** The participant's base URL. */
    readonly url: string,
    readonly reason: UnreachableReason,
    /** How long the start-up tried, in ms. */
    readonly waitedMs: number,
    /** How many requests it made. */
    readonly attempts: number,
    options: { readonly cause?: unknown } = {},
  ) {
    const seconds = (waitedMs / 1000).toFixed(1);
    super(
      `cannot reach the participant at ${url}: ${reason} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'} in ${seconds} s); ` +
        `check --url (${reason === 'host not found' ? 'the host name' : 'the host and port'}) and that the participant is running, or give --wait-for-participant to wait for it`,
      { cause: options.cause },
    );
  }
}
