/** The version `ledger-rx --version` prints: the package's. */
export const cliVersion = '0.1.0';
