import { readFile } from 'node:fs/promises';
import type { UnzipFileInfo } from 'fflate';
import { darPeers } from './internal/dar-peers.js';
import { decodeArchive } from './decode-archive.js';
import { DarError, DarErrorCodes } from './dar-error.js';
import { parseDarManifest, type DarManifest } from './dar-manifest.js';
import type { DamlPackage } from './package-model.js';

/** A decoded DAR: its main package and every package it ships, by package id. */
export interface Dar {
  /** The package id of the main package (the manifest's `Main-Dalf`). */
  readonly mainPackageId: string;
  /** The main package. */
  readonly main: DamlPackage;
  /** Every package of the DAR by id, the main one included, in the manifest's order. */
  readonly packages: ReadonlyMap<string, DamlPackage>;
  /** The `ArchivePayload` bytes of each package by id (their SHA-256 is the id): what a participant stores and serves. */
  readonly payloads: ReadonlyMap<string, Uint8Array>;
  /** The manifest's main section. */
  readonly manifest: DarManifest;
}

/** Limits of {@link readDar}. */
export interface ReadDarOptions {
  /** The largest uncompressed entry accepted, in bytes (default 1 GiB, the participant's limit). */
  readonly maxEntryBytes?: number;
}

const manifestEntry = 'META-INF/MANIFEST.MF';
/** Deflate expands at most about 1032:1; a header claiming more is corrupt (and would make us allocate it). */
const maxDeflateRatio = 1032;
/** A central-directory record is at least 46 bytes long. */
const minCentralRecord = 46;

function startsWithZipSignature(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

/** Unzips the manifest and the `.dalf` entries, with every failure a `DarError` (see docs/daml-archives.md, "Errors"). */
function unzipDar(bytes: Uint8Array, maxEntryBytes: number): Record<string, Uint8Array> {
  let records = 0;
  const filter = (file: UnzipFileInfo): boolean => {
    records += 1;
    if (records * minCentralRecord > bytes.length) throw new DarError(DarErrorCodes.DAR_CORRUPT, 'the zip directory lists more entries than the file can hold');
    const wanted = file.name === manifestEntry || file.name.endsWith('.dalf');
    if (!wanted) return false;
    if (file.originalSize > maxEntryBytes) {
      throw new DarError(DarErrorCodes.DAR_CORRUPT, `entry ${file.name} is ${file.originalSize} bytes uncompressed, more than the ${maxEntryBytes} allowed`, { entry: file.name });
    }
    if (file.size > bytes.length || (file.compression === 0 && file.size !== file.originalSize) || (file.compression === 8 && file.originalSize > file.size * maxDeflateRatio + 1024)) {
      throw new DarError(DarErrorCodes.DAR_CORRUPT, `entry ${file.name} has inconsistent sizes in the zip directory`, { entry: file.name });
    }
    return true;
  };
  const { unzipSync } = darPeers().fflate; // a missing peer is its own error, not a broken zip
  try {
    return unzipSync(bytes, { filter });
  } catch (cause) {
    if (cause instanceof DarError) throw cause;
    if (!startsWithZipSignature(bytes)) throw new DarError(DarErrorCodes.DAR_NOT_A_ZIP, 'not a DAR: the file is not a zip archive', { cause });
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DarError(DarErrorCodes.DAR_CORRUPT, `the DAR's zip structure is broken (truncated or corrupted): ${reason}`, { cause });
  }
}

/**
 * Reads a DAR (docs/daml-archives.md): unzips it, reads `META-INF/MANIFEST.MF`, decodes every `.dalf` the
 * manifest lists and checks each package id against the SHA-256 of its payload. Synchronous and pure (the
 * bytes in, the model out). Throws a {@link DarError}, whose `code` says what is wrong: not a zip,
 * a broken zip, a bad manifest, a missing entry, a malformed archive, a hash mismatch, an LF version other
 * than 2.1; or, when fflate or @bufbuild/protobuf is not installed, a `PeerDependencyMissingError` naming it.
 */
export function readDar(bytes: Uint8Array, options: ReadDarOptions = {}): Dar {
  const files = unzipDar(bytes, options.maxEntryBytes ?? 1024 * 1024 * 1024);
  const manifestBytes = files[manifestEntry];
  if (manifestBytes === undefined) {
    throw new DarError(DarErrorCodes.DAR_MANIFEST_INVALID, `not a DAR: the zip has no ${manifestEntry}`, { entry: manifestEntry });
  }
  let manifestText: string;
  try {
    manifestText = new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes);
  } catch (cause) {
    throw new DarError(DarErrorCodes.DAR_MANIFEST_INVALID, `${manifestEntry} is not UTF-8 text`, { entry: manifestEntry, cause });
  }
  const manifest = parseDarManifest(manifestText);
  const packages = new Map<string, DamlPackage>();
  const payloads = new Map<string, Uint8Array>();
  let mainPackageId: string | undefined;
  for (const entry of manifest.dalfs) {
    const dalf = files[entry];
    if (dalf === undefined) throw new DarError(DarErrorCodes.DAR_ENTRY_MISSING, `the manifest lists ${entry}, which the zip does not hold`, { entry });
    const decoded = decodeArchive(dalf, entry);
    if (entry === manifest.mainDalf) mainPackageId = decoded.package.id;
    if (!packages.has(decoded.package.id)) {
      packages.set(decoded.package.id, decoded.package);
      payloads.set(decoded.package.id, decoded.payload);
    }
  }
  const main = mainPackageId === undefined ? undefined : packages.get(mainPackageId);
  if (mainPackageId === undefined || main === undefined) throw new DarError(DarErrorCodes.DAR_ENTRY_MISSING, `the main archive ${manifest.mainDalf} was not read`, { entry: manifest.mainDalf });
  return { mainPackageId, main, packages, payloads, manifest };
}

/** Reads a DAR file from disk: `readDar` of its bytes. Throws a {@link DarError}, or the file system's error. */
export async function readDarFile(path: string, options: ReadDarOptions = {}): Promise<Dar> {
  return readDar(await readFile(path), options);
}
