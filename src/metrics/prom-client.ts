import { requirePeers } from '../errors/require-peers.js';

requirePeers('ledger-rx/metrics', ['prom-client'], (specifier) => import.meta.resolve(specifier));

/**
 * prom-client, an optional peer dependency of ledger-rx: loaded (by a top-level `await`) when
 * `ledger-rx/metrics` is imported, after checking that it is installed, so that importing the entry point
 * without it throws a `PeerDependencyMissingError` that names it instead of failing to link
 * (docs/packaging.md).
 */
export const promClient = await import('prom-client');
