import { InvalidArgumentError } from '../../errors/index.js';

/**
 * A vetting package reference must set exactly one of the attribute combinations the server accepts:
 * {id}, {name}, {name, version} or {id, name, version} (docs/server-behavior.md#vetting-update-order). An empty string counts as
 * not set. {id, name}, {id, version}, {version} and {} are rejected.
 *
 * @param ref - the reference.
 * @param field - its JSON path (`changes[0].operation.Vet.value.packages[1]`).
 * @throws InvalidArgumentError(field, …) for any other combination.
 */
export function checkVettingPackageRef(
  ref: {
    readonly packageId?: string | null | undefined;
    readonly packageName?: string | null | undefined;
    readonly packageVersion?: string | null | undefined;
  },
  field: string,
): void {
  const id = Boolean(ref.packageId);
  const name = Boolean(ref.packageName);
  const version = Boolean(ref.packageVersion);
  const accepted = (id && !name && !version) || (!id && name) || (id && name && version);
  if (!accepted) {
    throw new InvalidArgumentError(
      field,
      'must set packageId alone, packageName (optionally with packageVersion), or all three',
    );
  }
}
