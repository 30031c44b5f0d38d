import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/**
 * Checks that `id` is a package-name reference `#<package-name>:<Module.Path>:<Entity>`, the only form
 * the server accepts in event filters (a package-id reference is rejected with `INVALID_FIELD`).
 * Throws {@link InvalidArgumentError} naming `field` otherwise.
 */
export function checkPackageNameReference(field: string, id: string): void {
  const parts = id.split(':');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) {
    throw new InvalidArgumentError(field, `'${id}' is not an identifier of the form #<package-name>:<Module>:<Entity>`);
  }
  if (!id.startsWith('#') || id.length < 2) {
    throw new InvalidArgumentError(
      field,
      `'${id}' uses a package id; filters need a package-name reference (#<package-name>:<Module>:<Entity>)`,
    );
  }
}
