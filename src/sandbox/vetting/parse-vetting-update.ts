import type { UpdateVettedPackagesInput, VettingPackageRefInput } from './decode-update-vetted-packages-request.js';
import { lfStrings } from '../state/lf-strings.js';
import { protoDeserializationFailure } from './proto-deserialization-failure.js';

/** A package reference in one of the four accepted shapes; `text` renders it for error causes. */
export type VettingReference =
  | { readonly kind: 'id'; readonly id: string; readonly text: string }
  | { readonly kind: 'name'; readonly name: string; readonly text: string }
  | { readonly kind: 'name-version'; readonly name: string; readonly version: string; readonly text: string }
  | { readonly kind: 'all'; readonly id: string; readonly name: string; readonly version: string; readonly text: string };

/** A validated change: vet (with its new bounds, UTC instants as `Instant.toString` prints them) or unvet a list of references. */
export type VettingChange =
  | { readonly operation: 'vet'; readonly refs: readonly VettingReference[]; readonly from: string | undefined; readonly until: string | undefined }
  | { readonly operation: 'unvet'; readonly refs: readonly VettingReference[] };

/** The serial precondition: none, "no prior state", or "the current serial is `serial`". */
export type ExpectedSerial = { readonly kind: 'none' } | { readonly kind: 'no-prior' } | { readonly kind: 'prior'; readonly serial: number };

/** A validated vetting update request. */
export interface VettingUpdate {
  readonly changes: readonly VettingChange[];
  readonly dryRun: boolean;
  /** `undefined`: autodetect. */
  readonly synchronizerId: string | undefined;
  readonly expectedSerial: ExpectedSerial;
  readonly allowUnvettedDependencies: boolean;
  readonly allowIncompatibleUpgrades: boolean;
}

function parseReference(ref: VettingPackageRefInput): VettingReference {
  const checks = [
    ['package_id', ref.packageId, lfStrings.packageId],
    ['package_name', ref.packageName, lfStrings.packageName],
    ['package_version', ref.packageVersion, lfStrings.packageVersion],
  ] as const;
  for (const [field, value, check] of checks) {
    const problem = value === '' ? undefined : check(value);
    if (problem) throw protoDeserializationFailure(`ValueConversionError(${field},${problem})`);
  }
  const { packageId: id, packageName: name, packageVersion: version } = ref;
  if (id && name && version) return { kind: 'all', id, name, version, text: `All(id = '${id}', name = '${name}', version = '${version}')` };
  if (!id && name && version) return { kind: 'name-version', name, version, text: `NameAndVersion(name = '${name}', version = '${version}')` };
  if (id && !name && !version) return { kind: 'id', id, text: `package-id: '${id}'` };
  if (!id && name && !version) return { kind: 'name', name, text: `package-name: '${name}'` };
  throw protoDeserializationFailure(
    'InvariantViolation(Some(package_name),Either package_id must be set, or package_name and package_version must be set, or all three must be set.)',
  );
}

/**
 * Validates a decoded `UpdateVettedPackagesRequest` the way the server's `UpdateVettedPackagesOpts.fromProto`
 * does (docs/server-behavior.md#vetting-update-order step 3), in its order: each change in turn (an `Empty`/missing operation is
 * `FieldNotSet(operation)`; each reference's id, name and version syntax, then the attribute combination —
 * only {id}, {name}, {name, version} and {id, name, version} are accepted, `""` meaning unset), then the
 * synchronizer id syntax, then `Prior.value` (must be ≥ 1). Every failure is `PROTO_DESERIALIZATION_FAILURE`
 * with `context.reason`. An empty `changes` list is valid.
 */
export function parseVettingUpdate(input: UpdateVettedPackagesInput): VettingUpdate {
  const changes = input.changes.map((change): VettingChange => {
    const op = change.operation;
    switch (op.kind) {
      case 'Empty':
        throw protoDeserializationFailure('FieldNotSet(operation)');
      case 'Unvet':
        return { operation: 'unvet', refs: op.value.packages.map(parseReference) };
      case 'Vet':
        return {
          operation: 'vet',
          refs: op.value.packages.map(parseReference),
          // The decoder already gives the bounds in UTC, in the server's rendering.
          from: op.value.newValidFromInclusive,
          until: op.value.newValidUntilExclusive,
        };
    }
  });
  let synchronizerId: string | undefined;
  if (input.synchronizerId !== '') {
    const problem = lfStrings.uniqueIdentifier(input.synchronizerId);
    if (problem) throw protoDeserializationFailure(`ValueConversionError(synchronizer_id,${problem})`);
    synchronizerId = input.synchronizerId;
  }
  let expectedSerial: ExpectedSerial = { kind: 'none' };
  const serial = input.expectedTopologySerial?.serial;
  if (serial?.kind === 'NoPrior') expectedSerial = { kind: 'no-prior' };
  if (serial?.kind === 'Prior') {
    if (serial.value <= 0) {
      throw protoDeserializationFailure(`InvariantViolation(Some(expected_topology_serial),Received the non-positive value ${serial.value}, but the serial must be positive)`);
    }
    expectedSerial = { kind: 'prior', serial: serial.value };
  }
  const flags = new Set(input.updateVettedPackagesForceFlags);
  return {
    changes,
    dryRun: input.dryRun,
    synchronizerId,
    expectedSerial,
    allowUnvettedDependencies: flags.has('UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES'),
    allowIncompatibleUpgrades: flags.has('UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES'),
  };
}
