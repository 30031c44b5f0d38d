import { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/**
 * An entry point of ledger-rx was imported without the optional peer dependencies it needs (`pg` for
 * `ledger-rx/postgres`, the NATS client for `ledger-rx/jetstream`, `prom-client` for `ledger-rx/metrics`):
 * `import 'ledger-rx'` installs only what reading the ledger needs, and each of these entry points names
 * what to add (docs/packaging.md). `packages` are the missing packages, `entryPoint` the import that needs
 * them. Code `PEER_DEPENDENCY_MISSING`, never retryable: install the packages and start again.
 */
export class PeerDependencyMissingError extends LedgerRxError {
  override name = 'PeerDependencyMissingError';
  readonly entryPoint: string;
  readonly packages: readonly string[];

  constructor(entryPoint: string, packages: readonly string[], options: { cause?: unknown } = {}) {
    super(
      ErrorCodes.PEER_DEPENDENCY_MISSING,
      `${entryPoint} needs ${packages.join(', ')}, not installed: run \`npm install ${packages.join(' ')}\` (optional peer dependencies of ledger-rx), or use the CLI as \`npx ledger-rx-cli\`, which installs everything`,
      { retryable: false, ...options },
    );
    this.entryPoint = entryPoint;
    this.packages = packages;
  }
}
