import type { VettedPackagesRef } from '../../schemas/vetting.js';
import { UsageError } from '../options/usage-error.js';

/**
 * Parses a package reference of `vetting vet|unvet`: a package id (64 hex digits) → `{packageId}`;
 * `NAME@VERSION` → `{packageName, packageVersion}`; `NAME` → `{packageName}` (every version). Throws
 * {@link UsageError} for an empty name or version.
 */
export function parsePackageRef(value: string): VettedPackagesRef {
  const v = value.trim();
  if (/^[0-9a-f]{64}$/.test(v)) return { packageId: v };
  const at = v.lastIndexOf('@');
  if (at < 0) {
    if (v === '') throw new UsageError('a package reference must not be empty');
    return { packageName: v };
  }
  const name = v.slice(0, at);
  const version = v.slice(at + 1);
  if (name === '' || version === '') throw new UsageError(`package reference '${value}' must be NAME, NAME@VERSION or a package id`);
  return { packageName: name, packageVersion: version };
}
