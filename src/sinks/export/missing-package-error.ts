import { LedgerRxError } from '../../errors/ledger-rx-error.js';

/** The `code` of {@link MissingPackageError}. */
export const MISSING_PACKAGE = 'MISSING_PACKAGE';

/**
 * An optional package that a feature needs is not installed (the export's Parquet writer and zstd are
 * optional peer dependencies, so that users who never export install neither). The message names the
 * package and the command that installs it. Not retryable.
 */
export class MissingPackageError extends LedgerRxError {
  override name = 'MissingPackageError';

  constructor(
    /** The npm package to install. */
    readonly packageName: string,
    /** What needs it, e.g. "ledger-rx export --format parquet". */
    readonly neededFor: string,
    cause?: unknown,
  ) {
    super(MISSING_PACKAGE, `${neededFor} needs the package '${packageName}', which is not installed: run \`npm install ${packageName}\``, { cause });
  }
}
