import { PeerDependencyMissingError } from './peer-dependency-missing-error.js';

/**
 * Checks, without loading them, that the optional peer dependencies an entry point needs can be imported
 * from it: `resolve` is the entry module's `import.meta.resolve` (Node resolves a package from the
 * importing file's folder). Throws a {@link PeerDependencyMissingError} naming every missing package, so
 * that importing `ledger-rx/postgres` without `pg` fails at once with what to install, instead of at the
 * first connection with Node's `ERR_MODULE_NOT_FOUND` (docs/packaging.md).
 */
export function requirePeers(entryPoint: string, packages: readonly string[], resolve: (specifier: string) => string): void {
  const missing: string[] = [];
  let cause: unknown;
  for (const name of packages) {
    try {
      resolve(name);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
      missing.push(name);
      cause ??= error;
    }
  }
  if (missing.length > 0) throw new PeerDependencyMissingError(entryPoint, missing, { cause });
}
