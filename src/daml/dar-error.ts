import { LedgerRxError } from '../errors/ledger-rx-error.js';

/**
 * The stable codes of {@link DarError}: what is wrong with the file, from the outside in (see
 * docs/daml-archives.md, "Errors").
 */
export const DarErrorCodes = {
  /** The bytes are not a zip file at all (no zip signature, no central directory). */
  DAR_NOT_A_ZIP: 'DAR_NOT_A_ZIP',
  /** A zip whose structure or compressed data is broken: truncated, corrupted, an entry larger than allowed. */
  DAR_CORRUPT: 'DAR_CORRUPT',
  /** A zip without a usable `META-INF/MANIFEST.MF` (missing, no `Main-Dalf`, a `Format` other than `daml-lf`). */
  DAR_MANIFEST_INVALID: 'DAR_MANIFEST_INVALID',
  /** The manifest names a `.dalf` that the zip does not hold. */
  DAR_ENTRY_MISSING: 'DAR_ENTRY_MISSING',
  /** A `.dalf` (or an archive payload) that is not a well-formed Daml-LF archive. */
  DAR_ARCHIVE_CORRUPT: 'DAR_ARCHIVE_CORRUPT',
  /** The archive's `hash` (its package id) is not the SHA-256 of its payload. */
  DAR_HASH_MISMATCH: 'DAR_HASH_MISMATCH',
  /** A Daml-LF version this reader does not decode: LF 1.x, or an LF 2 minor version other than 2.1. */
  DAR_UNSUPPORTED_LF_VERSION: 'DAR_UNSUPPORTED_LF_VERSION',
} as const;

/** A code of {@link DarError}. */
export type DarErrorCode = (typeof DarErrorCodes)[keyof typeof DarErrorCodes];

/**
 * A DAR or a Daml-LF archive that cannot be read. `code` says what is wrong (see {@link DarErrorCodes});
 * `entry` names the zip entry concerned, when there is one. Never retryable: the same bytes fail the same way.
 */
export class DarError extends LedgerRxError {
  override name = 'DarError';
  declare readonly code: DarErrorCode;
  /** The zip entry (a `.dalf` path, `META-INF/MANIFEST.MF`) the problem is in, when known. */
  readonly entry: string | undefined;

  constructor(code: DarErrorCode, message: string, options: { entry?: string; cause?: unknown } = {}) {
    super(code, message, { retryable: false, cause: options.cause });
    this.entry = options.entry;
  }
}
