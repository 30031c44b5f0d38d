import { PeerDependencyMissingError } from '../../errors/peer-dependency-missing-error.js';

const loaded = new Map<string, Promise<unknown>>();

/**
 * Imports the optional package `name` once (later calls share the first import), or rejects with a
 * `PeerDependencyMissingError` naming it (with `neededFor` as what needs it) when it is not installed; any other failure of the import
 * (a broken install) rejects as it is.
 */
export function loadOptionalPackage<T>(name: string, neededFor: string, load: () => Promise<T>): Promise<T> {
  let module = loaded.get(name) as Promise<T> | undefined;
  if (module === undefined) {
    module = load().catch((error: unknown) => {
      loaded.delete(name);
      const code = (error as { code?: unknown } | null)?.code;
      if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(name)) {
        throw new PeerDependencyMissingError(neededFor, [name], { cause: error });
      }
      throw error;
    });
    loaded.set(name, module);
  }
  return module;
}
