import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The reference folder `../shared` beside the repository (CI always has it), or `LEDGER_RX_SHARED`.
 * `undefined` in a user's clone without it: tests that need it skip with a message.
 */
export const sharedDir: string | undefined = (() => {
  const candidate = process.env['LEDGER_RX_SHARED'] ?? resolve(repoRoot, '..', 'shared');
  return existsSync(resolve(candidate, 'canton', 'openapi.yaml')) ? candidate : undefined;
})();

/** Path of the official OpenAPI spec, when available. */
export const openapiPath = sharedDir ? resolve(sharedDir, 'canton', 'openapi.yaml') : undefined;

/** A release line with its own spec in ../shared/canton (`openapi-3.5.yaml`, ...). */
export type SpecVersion = '3.4' | '3.5' | '3.6';

/** Path of the OpenAPI spec of a release line (`openapi-<version>.yaml`), or of openapi.yaml without one. */
export function openapiPathOf(version: SpecVersion | undefined): string | undefined {
  if (!sharedDir) return undefined;
  return version === undefined ? openapiPath : resolve(sharedDir, 'canton', `openapi-${version}.yaml`);
}

/** Path of the official AsyncAPI (WebSocket) spec, when available. */
export const asyncapiPath = sharedDir ? resolve(sharedDir, 'canton', 'asyncapi.yaml') : undefined;
