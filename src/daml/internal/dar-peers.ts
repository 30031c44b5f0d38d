import { createRequire } from 'node:module';
import type * as Fflate from 'fflate';
import type * as Wire from '@bufbuild/protobuf/wire';
import { requirePeers } from '../../errors/require-peers.js';

/** The packages the DAR reader decodes with, loaded by {@link darPeers}. */
export interface DarPeers {
  readonly fflate: typeof Fflate;
  readonly wire: typeof Wire;
}

let loaded: DarPeers | undefined;

/**
 * The DAR reader's two optional peers (fflate for the zip, @bufbuild/protobuf's wire reader for the
 * archives), loaded at the first read rather than by `import 'ledger-rx/daml'`: the code that
 * `ledger-rx codegen` generates imports the same entry point for its runtime and needs neither
 * (docs/packaging.md). Throws `PeerDependencyMissingError` naming what to install when one is missing.
 * Both packages ship CommonJS builds, so they load synchronously and `readDar` stays synchronous.
 */
export function darPeers(): DarPeers {
  if (loaded) return loaded;
  requirePeers('ledger-rx/daml (the DAR reader)', ['fflate', '@bufbuild/protobuf'], (specifier) => import.meta.resolve(specifier));
  const require = createRequire(import.meta.url);
  loaded = { fflate: require('fflate') as typeof Fflate, wire: require('@bufbuild/protobuf/wire') as typeof Wire };
  return loaded;
}
