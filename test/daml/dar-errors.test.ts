import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import fc from 'fast-check';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DarError, decodeArchive, readDar } from '../../src/daml/index.js';
import { sharedDir } from '../support/shared-dir.js';

/**
 * A file that is not a readable DAR gives a `DarError` whose code says why (not a zip, broken zip, manifest,
 * missing entry, malformed archive, hash mismatch, LF version), and fuzzed or truncated DARs never raise
 * anything else.
 */
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function archive(payload: Uint8Array, hash = sha256(payload)): Uint8Array {
  return new BinaryWriter().uint32(26).bytes(payload).uint32(34).string(hash).finish(); // fields 3 (payload) and 4 (hash)
}

function darOf(dalfs: Record<string, Uint8Array>, main: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const manifest = `Manifest-Version: 1.0\nMain-Dalf: ${main}\nDalfs: ${Object.keys(dalfs).join(', ')}\nFormat: daml-lf\n`;
  return zipSync({ 'META-INF/MANIFEST.MF': strToU8(manifest), ...dalfs, ...extra });
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DarError) return e.code;
    throw e;
  }
  return 'ok';
}

describe('readDar: typed errors', () => {
  it('not a zip', () => {
    expect(codeOf(() => readDar(strToU8('hello, this is not a zip file at all')))).toBe('DAR_NOT_A_ZIP');
    expect(codeOf(() => readDar(new Uint8Array(0)))).toBe('DAR_NOT_A_ZIP');
  });

  it('a zip without a manifest, or with a manifest that names no main archive or another format', () => {
    expect(codeOf(() => readDar(zipSync({ 'a.txt': strToU8('x') })))).toBe('DAR_MANIFEST_INVALID');
    expect(codeOf(() => readDar(zipSync({ 'META-INF/MANIFEST.MF': strToU8('Manifest-Version: 1.0\nFormat: daml-lf\n') })))).toBe('DAR_MANIFEST_INVALID');
    expect(codeOf(() => readDar(zipSync({ 'META-INF/MANIFEST.MF': strToU8('Main-Dalf: a.dalf\nFormat: jar\n') })))).toBe('DAR_MANIFEST_INVALID');
  });

  it('a manifest naming an archive the zip does not hold', () => {
    expect(codeOf(() => readDar(zipSync({ 'META-INF/MANIFEST.MF': strToU8('Main-Dalf: a.dalf\nDalfs: a.dalf\nFormat: daml-lf\n') })))).toBe('DAR_ENTRY_MISSING');
  });

  it('an LF 1.x archive, an LF 2 minor other than 2.1', () => {
    const lf1 = new BinaryWriter().uint32(18).bytes(new Uint8Array([1, 2, 3])).uint32(26).string('14').finish(); // daml_lf_1 = 2, minor = 3
    const error = (() => {
      try {
        readDar(darOf({ 'p.dalf': archive(lf1) }, 'p.dalf'));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DarError);
    expect((error as DarError).code).toBe('DAR_UNSUPPORTED_LF_VERSION');
    expect((error as DarError).message).toMatch(/Daml-LF 1\.14/);
    expect((error as DarError).entry).toBe('p.dalf');
    const lf2dev = new BinaryWriter().uint32(26).string('dev').uint32(34).bytes(new Uint8Array()).finish();
    expect(codeOf(() => readDar(darOf({ 'p.dalf': archive(lf2dev) }, 'p.dalf')))).toBe('DAR_UNSUPPORTED_LF_VERSION');
  });

  it('a hash that is not the SHA-256 of the payload', () => {
    const payload = new BinaryWriter().uint32(26).string('1').uint32(34).bytes(new Uint8Array()).finish();
    expect(codeOf(() => readDar(darOf({ 'p.dalf': archive(payload, '00'.repeat(32)) }, 'p.dalf')))).toBe('DAR_HASH_MISMATCH');
  });

  it('an LF 2.1 package without metadata, and protobuf garbage', () => {
    const noMetadata = new BinaryWriter().uint32(26).string('1').uint32(34).bytes(new Uint8Array()).finish();
    expect(codeOf(() => decodeArchive(archive(noMetadata)))).toBe('DAR_ARCHIVE_CORRUPT');
    expect(codeOf(() => decodeArchive(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])))).toBe('DAR_ARCHIVE_CORRUPT');
  });
});

describe.skipIf(sharedDir === undefined)('readDar: fuzzed and truncated DARs never crash', () => {
  const darBytes = (): Uint8Array => new Uint8Array(readFileSync(join(sharedDir!, 'dars', 'splice-api-token-holding-v1.dar')));
  const expectTyped = (f: () => unknown): void => {
    try {
      f();
    } catch (e) {
      expect(e, String(e)).toBeInstanceOf(DarError);
    }
  };

  it('truncated at any length: DAR_NOT_A_ZIP or DAR_CORRUPT', () => {
    const bytes = darBytes();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), (length) => {
        expect(['DAR_NOT_A_ZIP', 'DAR_CORRUPT']).toContain(codeOf(() => readDar(bytes.subarray(0, length))));
      }),
      { numRuns: 60, seed: 23 },
    );
  });

  it('random bytes overwritten anywhere: a model or a DarError', () => {
    const original = darBytes();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: original.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (edits) => {
        const bytes = original.slice();
        for (const [at, value] of edits) bytes[at] = value;
        expectTyped(() => readDar(bytes));
      }),
      { numRuns: 60, seed: 23 },
    );
  });

  it('the zip directory fuzzed (its sizes and offsets): a model or a DarError', () => {
    const original = darBytes();
    const tail = 6000; // the central directory and its end record sit at the end
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: tail - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), (edits) => {
        const bytes = original.slice();
        for (const [at, value] of edits) bytes[bytes.length - 1 - at] = value;
        expectTyped(() => readDar(bytes));
      }),
      { numRuns: 80, seed: 23 },
    );
  });

  it('a package payload fuzzed behind a valid hash (so the package decoder sees it): a model or DAR_ARCHIVE_CORRUPT', () => {
    const files = unzipSync(darBytes(), { filter: (f) => f.name.endsWith('.dalf') && f.name.includes('splice-api-token-holding-v1-1.0.0-718') });
    const dalf = Object.values(files)[0]!;
    // the payload of the archive: field 3 at the start (hash_function 0 is omitted)
    const decoded = decodeArchive(dalf);
    const payload = decoded.payload;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.tuple(fc.nat({ max: payload.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }).map((edits) => {
            const p = payload.slice();
            for (const [at, v] of edits) p[at] = v;
            return p;
          }),
          fc.nat({ max: payload.length - 1 }).map((n) => payload.slice(0, n)),
        ),
        (p) => {
          expect(['ok', 'DAR_ARCHIVE_CORRUPT', 'DAR_UNSUPPORTED_LF_VERSION']).toContain(codeOf(() => decodeArchive(archive(p))));
        },
      ),
      { numRuns: 200, seed: 23 },
    );
  });
});
