import { requirePeers } from '../errors/require-peers.js';

requirePeers('ledger-rx/tracing', ['@opentelemetry/api'], (specifier) => import.meta.resolve(specifier));

/**
 * `@opentelemetry/api`, an optional peer dependency of ledger-rx: loaded (by a top-level `await`) when
 * `ledger-rx/tracing` is imported, after checking that it is installed, so that importing the entry point
 * without it throws a `PeerDependencyMissingError` that names it instead of failing to link
 * (docs/packaging.md). The client's own spans do not use this module: they load the API only once an
 * application registered something with it.
 */
export const openTelemetryApi = await import('@opentelemetry/api');
