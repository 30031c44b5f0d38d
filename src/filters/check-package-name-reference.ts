import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/**
 * Checks that `id` is a package-name reference `#<package-name>:<Module.Path>:<Entity>`, the only form
 * participants 3.5 and later accept in event filters (a package-id reference is `INVALID_FIELD packageId`).
 * 3.4 still accepts a package id but only as a deprecated spelling of its package's name (it reads every
 * version of that name, docs/participant-versions.md), so a package-name reference reads the same on every
 * version and there is nothing to opt out for: a package id is always rejected, with the name form to use.
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
      `'${id}' uses a package id; filters need a package-name reference: write '#<package-name>:${parts[1] ?? '<Module>'}:${parts[2] ?? '<Entity>'}' with the name of package ${parts[0] ?? ''} (participants 3.5 and later reject package ids in filters; 3.4 only maps them to that name)`,
    );
  }
}
