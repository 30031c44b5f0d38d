import { createHash } from 'node:crypto';
import { DarError, DarErrorCodes } from './dar-error.js';
import { decodeArchiveFields, decodeArchivePayloadFields, decodeLf2Package, MalformedArchive } from './internal/decode-lf2-package.js';
import type { DamlPackage } from './package-model.js';

/** The Daml-LF 2 minor versions this reader decodes (docs/daml-archives.md, "Versions"). */
const supportedMinors: ReadonlySet<string> = new Set(['1']);

function lowerHexSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function corrupt(what: string, cause: unknown, entry: string | undefined): DarError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DarError(DarErrorCodes.DAR_ARCHIVE_CORRUPT, `${what} is not a well-formed Daml-LF archive: ${reason}`, entry === undefined ? { cause } : { entry, cause });
}

/**
 * Decodes an `ArchivePayload` (what `GET /v2/packages/{id}` answers) whose package id is `packageId`, without
 * checking the hash (see {@link decodeArchive} for a `.dalf`). Throws a {@link DarError}:
 * `DAR_UNSUPPORTED_LF_VERSION` for LF 1.x or an LF 2 minor other than 2.1, `DAR_ARCHIVE_CORRUPT` for anything
 * malformed.
 */
export function decodeArchivePayload(payload: Uint8Array, packageId: string, entry?: string): DamlPackage {
  const where = entry ?? `package ${packageId}`;
  const opts = entry === undefined ? {} : { entry };
  let fields;
  try {
    fields = decodeArchivePayloadFields(payload);
  } catch (cause) {
    throw corrupt(where, cause, entry);
  }
  if (fields.lf1) throw new DarError(DarErrorCodes.DAR_UNSUPPORTED_LF_VERSION, `${where} is a Daml-LF 1.${fields.minor} package: only Daml-LF 2.1 is read (rebuild it with SDK 3)`, opts);
  if (fields.lf2 === undefined) throw new DarError(DarErrorCodes.DAR_ARCHIVE_CORRUPT, `${where} holds no Daml-LF package`, opts);
  if (!supportedMinors.has(fields.minor)) throw new DarError(DarErrorCodes.DAR_UNSUPPORTED_LF_VERSION, `${where} is a Daml-LF 2.${fields.minor} package: only Daml-LF 2.1 is read`, opts);
  if (fields.patch !== 0) throw new DarError(DarErrorCodes.DAR_UNSUPPORTED_LF_VERSION, `${where} has Daml-LF patch version ${fields.patch}: only patch 0 is defined`, opts);
  try {
    const decoded = decodeLf2Package(fields.lf2, packageId);
    return { id: packageId, name: decoded.name, version: decoded.version, lfVersion: `2.${fields.minor}`, upgradedPackageId: decoded.upgradedPackageId, modules: decoded.modules };
  } catch (cause) {
    if (cause instanceof MalformedArchive || cause instanceof Error) throw corrupt(where, cause, entry);
    throw cause;
  }
}

/** A decoded `.dalf`: the package and the payload bytes it was decoded from (hashed to its id). */
export interface DecodedArchive {
  readonly package: DamlPackage;
  /** The `ArchivePayload` bytes: what the participant stores and serves for this package id. */
  readonly payload: Uint8Array;
}

/**
 * Decodes a `.dalf` (a `daml_lf.Archive`): checks that its hash is the SHA-256 of its payload (the package id),
 * then decodes the payload. Throws a {@link DarError} (`DAR_ARCHIVE_CORRUPT`, `DAR_HASH_MISMATCH`,
 * `DAR_UNSUPPORTED_LF_VERSION`), never anything else.
 */
export function decodeArchive(bytes: Uint8Array, entry?: string): DecodedArchive {
  const where = entry ?? 'the archive';
  const opts = entry === undefined ? {} : { entry };
  let fields;
  try {
    fields = decodeArchiveFields(bytes);
  } catch (cause) {
    throw corrupt(where, cause, entry);
  }
  if (fields.payload === undefined) throw new DarError(DarErrorCodes.DAR_ARCHIVE_CORRUPT, `${where} has no payload`, opts);
  if (fields.hashFunction !== 0) throw new DarError(DarErrorCodes.DAR_ARCHIVE_CORRUPT, `${where} uses hash function ${fields.hashFunction}: only SHA-256 (0) exists`, opts);
  const actual = lowerHexSha256(fields.payload);
  if (actual !== fields.hash) {
    throw new DarError(DarErrorCodes.DAR_HASH_MISMATCH, `${where} claims package id '${fields.hash}' but its payload hashes to ${actual}`, opts);
  }
  return { package: decodeArchivePayload(fields.payload, actual, entry), payload: fields.payload };
}
