import { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/** What {@link UnsupportedByParticipantVersionError} is built from. */
export interface UnsupportedByParticipantVersionInit {
  /** The client operation (`updatesPage`, `updateByHash`, ...). */
  readonly operation: string;
  /** The HTTP method and path the operation would use (`POST /v2/updates/update-by-hash`). */
  readonly endpoint: string;
  /** The version string the participant reported (`3.4.11`, `3.5.10-SNAPSHOT`). */
  readonly participantVersion: string;
  /** The versions that have it, in words (`3.6.0 and later`). */
  readonly availableIn: string;
  /** What to use instead on this participant. */
  readonly alternative: string;
}

/**
 * An operation that the connected participant's version does not have (docs/participant-versions.md),
 * rejected before its request was sent: only `GET /v2/version` was read. The message names the version,
 * the versions that have the operation and the alternative. Never retryable (the same participant answers
 * the same), but a participant upgraded in the meantime is read again after a reconnection.
 */
export class UnsupportedByParticipantVersionError extends LedgerRxError {
  override name = 'UnsupportedByParticipantVersionError';
  readonly operation: string;
  readonly endpoint: string;
  readonly participantVersion: string;
  readonly availableIn: string;
  readonly alternative: string;

  constructor(init: UnsupportedByParticipantVersionInit) {
    super(
      ErrorCodes.UNSUPPORTED_BY_PARTICIPANT_VERSION,
      `${init.operation} (${init.endpoint}) is not available on this participant (version ${init.participantVersion}); it exists in ${init.availableIn}. Use ${init.alternative} instead.`,
      { retryable: false },
    );
    this.operation = init.operation;
    this.endpoint = init.endpoint;
    this.participantVersion = init.participantVersion;
    this.availableIn = init.availableIn;
    this.alternative = init.alternative;
  }
}
