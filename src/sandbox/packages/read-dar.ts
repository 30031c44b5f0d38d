import { createHash } from 'node:crypto';
import type { unzipSync } from 'fflate';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { protoFields, repeatedInts, type ProtoField } from './proto-fields.js';
import { MalformedPackage, readPackageSignatures, type PackageSignatures } from './read-package-signatures.js';

/** One package of a DAR as the sandbox keeps it: the id, the `ArchivePayload` bytes and the metadata. */
export interface DarPackage {
  readonly packageId: string;
  /** The serialized `ArchivePayload` (what `GET /v2/packages/{id}` returns; its SHA-256 is the id). */
  readonly payload: Uint8Array;
  readonly name: string;
  readonly version: string;
  /** Package ids the package imports (its direct dependencies). */
  readonly dependencies: readonly string[];
  /**
   * A utility package: no template, interface or exception, and no serializable data type. Upgrade checks
   * ignore such packages (docs/sandbox.md#dar-uploads).
   */
  readonly utility: boolean;
  /** Its data types, templates and interfaces (docs/sandbox.md#typed-creates). */
  readonly signatures: PackageSignatures;
}

/** A DAR read by {@link readDar}: its main package first, then the others in the manifest's order. */
export interface DarContents {
  readonly main: DarPackage;
  readonly dependencies: readonly DarPackage[];
}

/** Entries the real reader refuses as a zip bomb: 1 GiB and more (docs/sandbox.md#dar-uploads). */
const zipBombBytes = 2 ** 30;

const invalidDar = (entries: readonly string[]) =>
  SandboxError.grpc(ErrorDefs.INVALID_DAR, 'Dar file is corrupt', { context: { entries: `List(${entries.join(', ')})` } });

const parseError = (reason: string) => SandboxError.grpc(ErrorDefs.DAR_PARSE_ERROR, 'Failed to parse the dar file content.', { context: { reason } });

/** The attributes of a JAR manifest's main section (continuation lines start with one space; CRLF or LF). */
function manifestAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (out.size > 0) break;
      continue;
    }
    if (line.startsWith(' ') && last !== undefined) {
      out.set(last, (out.get(last) ?? '') + line.slice(1));
      continue;
    }
    const colon = line.indexOf(': ');
    if (colon <= 0) continue;
    last = line.slice(0, colon);
    out.set(last, line.slice(colon + 2));
  }
  return out;
}

const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

function only(fields: readonly ProtoField[], field: number): number | Uint8Array | undefined {
  let v: number | Uint8Array | undefined;
  for (const f of fields) if (f.field === field) v = f.value;
  return v;
}

type PackageFacts = Omit<DarPackage, 'packageId' | 'payload'>;

/** Whether a `Module` declares a template, interface, exception or serializable data type; `undefined` if malformed. */
function declaresSerializable(moduleBytes: Uint8Array): boolean | undefined {
  const fields = protoFields(moduleBytes);
  if (!fields) return undefined;
  for (const f of fields) {
    if (f.field === 6 || f.field === 7 || f.field === 8) return true;
    if (f.field === 4 && f.value instanceof Uint8Array) {
      const dataType = protoFields(f.value);
      if (!dataType) return undefined;
      if (dataType.some((d) => d.field === 4 && d.value === 1)) return true;
    }
  }
  return false;
}

/**
 * Name, version, imports and utility status of a Daml-LF 2 `Package` (docs/sandbox.md#dar-uploads): the
 * metadata's interned name and version; the imports are the interned strings that are package ids (an
 * imported package is referred to by its id in the string table).
 */
function packageFacts(packageId: string, packageBytes: Uint8Array): PackageFacts | string {
  const pkg = protoFields(packageBytes);
  if (!pkg) return 'the package is not a valid protobuf message';
  const strings: string[] = [];
  try {
    for (const f of pkg) if (f.field === 2 && typeof f.value !== 'number') strings.push(text(f.value));
  } catch {
    return 'an interned string is not valid UTF-8';
  }
  const metadata = only(pkg, 4);
  if (metadata === undefined || typeof metadata === 'number') return 'Package metadata is missing';
  const meta = protoFields(metadata);
  if (!meta) return 'the package metadata is not a valid protobuf message';
  const [name, version] = [repeatedInts(meta, 1)?.at(-1), repeatedInts(meta, 2)?.at(-1)].map((i) => (i === undefined ? undefined : strings[i]));
  if (name === undefined || version === undefined) return 'the package metadata names no interned name or version';
  let utility = true;
  for (const f of pkg) {
    if (f.field !== 1 || !(f.value instanceof Uint8Array)) continue;
    const declares = declaresSerializable(f.value);
    if (declares === undefined) return 'a module is not a valid protobuf message';
    if (declares) utility = false;
  }
  const dependencies = [...new Set(strings.filter((s) => /^[0-9a-f]{64}$/.test(s) && s !== packageId))];
  let signatures: PackageSignatures;
  try {
    signatures = readPackageSignatures(packageId, pkg, strings);
  } catch (error) {
    if (error instanceof MalformedPackage) return error.message;
    throw error;
  }
  return { name, version, dependencies, utility, signatures };
}

/** Reads one `.dalf` (`Archive`): the hash check, the payload's LF version and the package metadata. */
function readArchive(path: string, bytes: Uint8Array): DarPackage {
  const archive = protoFields(bytes);
  if (!archive) throw parseError(`${path}: the archive is not a valid protobuf message`);
  const unknown = archive.find((f) => f.field !== 1 && f.field !== 3 && f.field !== 4);
  if (unknown) throw parseError(`${path}: unknown field ${unknown.field} in Archive`);
  const hashFunction = only(archive, 1);
  if (hashFunction !== undefined && hashFunction !== 0) throw parseError(`${path}: unsupported hash function ${String(hashFunction)}`);
  const payload = only(archive, 3);
  const hashBytes = only(archive, 4);
  if (!(payload instanceof Uint8Array) || !(hashBytes instanceof Uint8Array)) throw parseError(`${path}: the archive has no payload or no hash`);
  let hash: string;
  try {
    hash = text(hashBytes);
  } catch {
    throw parseError(`${path}: the archive's hash is not valid UTF-8`);
  }
  const actual = createHash('sha256').update(payload).digest('hex');
  if (actual !== hash) throw parseError(`Mismatching hashes! Expected ${hash} but got ${actual}`);
  const archivePayload = protoFields(payload);
  if (!archivePayload) throw parseError(`${path}: the archive payload is not a valid protobuf message`);
  if (only(archivePayload, 2) !== undefined) throw parseError(`${path}: Daml-LF 1.x archives are not supported`);
  const patch = only(archivePayload, 5);
  if (patch !== undefined && patch !== 0) throw parseError(`${path}: unsupported Daml-LF patch version ${String(patch)}`);
  const lf2 = only(archivePayload, 4);
  if (!(lf2 instanceof Uint8Array)) throw parseError(`${path}: the archive payload holds no Daml-LF 2 package`);
  const meta = packageFacts(hash, lf2);
  if (typeof meta === 'string') throw parseError(`${path}: ${meta}`);
  return { packageId: hash, payload, ...meta };
}

/**
 * Reads a DAR (a zip whose `META-INF/MANIFEST.MF` names the main `.dalf` and all of them) the way the
 * participant's upload does (docs/sandbox.md#dar-uploads), and throws the participant's error, never
 * anything else:
 * - not a zip, no manifest, or a manifest without `Main-Dalf`, `Dalfs` or `Format: daml-lf`: `INVALID_DAR`;
 * - an entry of 1 GiB or more: `ZIP_BOMB`;
 * - a `.dalf` the manifest names that the zip lacks: `INVALID_ZIP_ENTRY`;
 * - a malformed archive, a hash that is not the payload's SHA-256, an LF 1.x or patched archive, a package
 *   without metadata: `DAR_PARSE_ERROR` with the reason in the context.
 *
 * `unzip` is fflate's `unzipSync`, which the caller loads on first use (`loadUnzip`).
 */
export function readDar(bytes: Uint8Array, unzip: typeof unzipSync): DarContents {
  let bomb: string | undefined;
  let files: Record<string, Uint8Array>;
  try {
    files = unzip(bytes, {
      filter: (f) => {
        if (f.originalSize >= zipBombBytes) bomb ??= f.name;
        return bomb === undefined;
      },
    });
  } catch {
    throw invalidDar([]);
  }
  if (bomb !== undefined) {
    throw SandboxError.grpc(ErrorDefs.ZIP_BOMB, 'The DAR is too big: an entry is larger than the maximum of 1 GiB', { context: { entry: bomb } });
  }
  const entries = Object.keys(files);
  const manifestBytes = files['META-INF/MANIFEST.MF'];
  if (!manifestBytes) throw invalidDar(entries);
  let manifest: Map<string, string>;
  try {
    manifest = manifestAttributes(text(manifestBytes));
  } catch {
    throw invalidDar(entries);
  }
  const mainPath = manifest.get('Main-Dalf')?.trim();
  const dalfs = manifest.get('Dalfs');
  if (!mainPath || dalfs === undefined || manifest.get('Format')?.trim() !== 'daml-lf') throw invalidDar(entries);
  const paths = [mainPath, ...dalfs.split(',').map((p) => p.trim()).filter((p) => p !== '' && p !== mainPath)];
  const packages = paths.map((path) => {
    const dalf = files[path];
    if (!dalf) throw SandboxError.grpc(ErrorDefs.INVALID_ZIP_ENTRY, 'Dar zip file is corrupt', { context: { name: path } });
    return readArchive(path, dalf);
  });
  const [main, ...dependencies] = packages as [DarPackage, ...DarPackage[]];
  return { main, dependencies };
}
