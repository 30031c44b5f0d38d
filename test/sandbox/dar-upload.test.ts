import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { sharedAvailable, sharedDir } from '../support/shared-dir.js';
import { createUser, expectDecodeFailure, expectError, expectRedacted, stateSnapshot, testSecret } from './auth-test-kit.js';

/**
 * The package endpoints against the real DARs of ../shared/dars, in raw HTTP: upload (`POST /v2/dars`,
 * `POST /v2/packages`) with its query parameters, vetting and errors, the list, the archive bytes, the status,
 * and bad DARs (hand-made, truncated, fuzzed) that must always get the participant's 400, never a 500.
 */
const available = sharedAvailable('dars/richtypes.dar', 'the DAR upload tests');
const dar = (name: string): Buffer => readFileSync(join(sharedDir ?? '', 'dars', `${name}.dar`));
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** The `.dalf` files of a DAR, read with fflate alone (not with the sandbox's reader). */
function dalfsOf(bytes: Uint8Array): Uint8Array[] {
  return Object.entries(unzipSync(bytes))
    .filter(([name]) => name.endsWith('.dalf'))
    .map(([, b]) => b);
}

/** A protobuf length-delimited field (numbers and lengths below 2^21 here). */
function lengthDelimited(field: number, value: Uint8Array): Uint8Array {
  const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
  return Uint8Array.from([...varint(field * 8 + 2), ...varint(value.length), ...value]);
}

/** An `Archive` message: payload (field 3) and hash (field 4). */
function archiveOf(payload: Uint8Array, hash = sha256(payload)): Uint8Array {
  return Uint8Array.from([...lengthDelimited(3, payload), ...lengthDelimited(4, strToU8(hash))]);
}

function darOf(dalfs: Record<string, Uint8Array>, main: string, manifestExtra = 'Format: daml-lf\n'): Uint8Array {
  const manifest = `Manifest-Version: 1.0\nMain-Dalf: ${main}\nDalfs: ${Object.keys(dalfs).join(', ')}\n${manifestExtra}`;
  return zipSync({ 'META-INF/MANIFEST.MF': strToU8(manifest), ...dalfs });
}

let sandbox: Sandbox;
let admin: string;
beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret });
  admin = await sandbox.token('participant_admin');
});
afterAll(() => sandbox.close());

/** Uploads `body` as the participant admin, or with `token` (`null`: no token). */
const upload = (body: Uint8Array, query = '', path = '/v2/dars', token: string | null = admin) =>
  call(sandbox.url, 'POST', `${path}${query}`, { binaryBody: body, ...(token === null ? {} : { token }) });
const packageIds = async (): Promise<string[]> => ((await call(sandbox.url, 'GET', '/v2/packages', { token: admin })).json as { packageIds: string[] }).packageIds;
const synchronizerId = () => sandbox.state.synchronizers[0]?.id ?? '';

describe.runIf(available)('POST /v2/dars with a real DAR', () => {
  it('stores every package of the DAR, vets them all, and serves each archive payload with its hash', async () => {
    const bytes = dar('richtypes');
    const before = await packageIds();
    const r = await upload(bytes);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({});

    const dalfs = dalfsOf(bytes);
    const after = await packageIds();
    const added = after.slice(before.length);
    expect(added).toHaveLength(dalfs.length);
    const vetted = sandbox.state.vetting.vettedPackageIds(synchronizerId());
    for (const id of added) {
      expect(vetted.has(id)).toBe(true);
      const got = await call(sandbox.url, 'GET', `/v2/packages/${id}`, { token: await createUser(sandbox, `reader-${id.slice(0, 8)}`) });
      expect(got.status).toBe(200);
      expect(got.contentType).toBe('application/octet-stream');
      expect(got.headers['canton-package-hash']).toBe(id);
      expect(sha256(got.bytes)).toBe(id);
      // The body is the .dalf's payload field: it lies inside exactly one of the DAR's .dalf files.
      expect(dalfs.filter((d) => Buffer.from(d).includes(got.bytes))).toHaveLength(1);
      const status = await call(sandbox.url, 'GET', `/v2/packages/${id}/status`, { token: admin });
      expect(status.json).toEqual({ packageStatus: 'PACKAGE_STATUS_REGISTERED' });
    }
  });

  it('accepts the same DAR twice without changing the store or the vetting state', async () => {
    const bytes = dar('richtypes');
    await upload(bytes);
    const before = stateSnapshot(sandbox);
    const ids = await packageIds();
    const r = await upload(bytes);
    expect(r.status).toBe(200);
    expect(await packageIds()).toEqual(ids);
    expect(stateSnapshot(sandbox)).toBe(before);
  });

  it('POST /v2/packages behaves like /v2/dars; a DAR with 40+ packages (two daml-prim 0.0.0) uploads and vets', async () => {
    for (const name of ['splice-api-token-holding-v1', 'splice-amulet-name-service']) {
      const bytes = dar(name);
      const r = await upload(bytes, '', '/v2/packages');
      expect(r.status).toBe(200);
      const vetted = sandbox.state.vetting.vettedPackageIds(synchronizerId());
      for (const d of dalfsOf(bytes)) {
        const id = (await packageIds()).find((p) => Buffer.from(d).includes(Buffer.from(p)));
        expect(id !== undefined && vetted.has(id)).toBe(true);
      }
    }
  });
});

describe.runIf(available)('upload parameters and authorization', () => {
  it('vetAllPackages=false stores without vetting', async () => {
    const s = await startSandbox({ authSecret: testSecret });
    try {
      const token = await s.token('participant_admin');
      const serial = s.state.vetting.get(s.state.synchronizers[0]?.id ?? '', s.state.participantId)?.serial;
      const r = await call(s.url, 'POST', '/v2/dars?vetAllPackages=FALSE', { binaryBody: dar('splice-api-token-holding-v1'), token });
      expect(r.status).toBe(200);
      expect(s.state.packages.all()).toHaveLength(6 + dalfsOf(dar('splice-api-token-holding-v1')).length);
      expect(s.state.vetting.get(s.state.synchronizers[0]?.id ?? '', s.state.participantId)?.serial).toBe(serial);
    } finally {
      await s.close();
    }
  });

  it('rejects a malformed vetAllPackages with the 400 text/plain, an unknown synchronizer with its 400', async () => {
    expectDecodeFailure(await upload(dar('richtypes'), '?vetAllPackages=yes'));
    const before = stateSnapshot(sandbox);
    const r = await upload(dar('splice-api-token-holding-v1'), '?synchronizerId=nowhere%3A%3A1220');
    expectError(r, 400, 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER');
    expect(stateSnapshot(sandbox)).toBe(before);
  });

  it('needs a participant admin', async () => {
    expectRedacted(await upload(dar('richtypes'), '', '/v2/dars', null), 401);
    expectRedacted(await upload(dar('richtypes'), '', '/v2/dars', await createUser(sandbox, 'uploader')), 403);
  });
});

describe('GET /v2/packages/{id} and /status', () => {
  it('answers PACKAGE_NOT_FOUND for an unknown id, INVALID_ARGUMENT for an invalid one', async () => {
    const unknown = 'f'.repeat(64);
    const r = await call(sandbox.url, 'GET', `/v2/packages/${unknown}`, { token: admin });
    const body = expectError(r, 404, 'PACKAGE_NOT_FOUND');
    expect(body.resources).toEqual([['PACKAGE', unknown]]);
    expectError(await call(sandbox.url, 'GET', `/v2/packages/${'a'.repeat(65)}`, { token: admin }), 400, 'INVALID_ARGUMENT');
    expectError(await call(sandbox.url, 'GET', '/v2/packages/bad%21id/status', { token: admin }), 400, 'INVALID_ARGUMENT');
    const status = await call(sandbox.url, 'GET', `/v2/packages/${unknown}/status`, { token: admin });
    expect(status.json).toEqual({ packageStatus: 'PACKAGE_STATUS_UNSPECIFIED' });
  });
});

describe('bad DARs get the participant error, never a 500', () => {
  const payload = strToU8('not really an ArchivePayload');
  const cases: [string, () => Uint8Array, string][] = [
    ['bytes that are not a zip', () => strToU8('hello, this is no zip'), 'INVALID_DAR'],
    ['an empty body', () => new Uint8Array(0), 'INVALID_DAR'],
    ['a zip without a manifest', () => zipSync({ 'a.dalf': archiveOf(payload) }), 'INVALID_DAR'],
    ['a manifest without Format: daml-lf', () => darOf({ 'a.dalf': archiveOf(payload) }, 'a.dalf', ''), 'INVALID_DAR'],
    ['a manifest naming a missing .dalf', () => darOf({ 'a.dalf': archiveOf(payload) }, 'b.dalf'), 'INVALID_ZIP_ENTRY'],
    ['a hash that is not the payload SHA-256', () => darOf({ 'a.dalf': archiveOf(payload, 'e'.repeat(64)) }, 'a.dalf'), 'DAR_PARSE_ERROR'],
    ['a corrupt archive', () => darOf({ 'a.dalf': Uint8Array.from([0x1a, 0xff, 0xff]) }, 'a.dalf'), 'DAR_PARSE_ERROR'],
    ['an archive whose payload is no Daml-LF 2 package', () => darOf({ 'a.dalf': archiveOf(payload) }, 'a.dalf'), 'DAR_PARSE_ERROR'],
    [
      'an entry declared as 1 GiB',
      () => {
        const zip = zipSync({ 'META-INF/MANIFEST.MF': strToU8('Manifest-Version: 1.0\n') }, { level: 0 });
        const at = Buffer.from(zip).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); // the central directory entry
        new DataView(zip.buffer, zip.byteOffset).setUint32(at + 24, 2 ** 30, true); // its uncompressed size
        return zip;
      },
      'ZIP_BOMB',
    ],
  ];
  it.each(cases)('%s', async (_, bytes, code) => {
    const before = stateSnapshot(sandbox);
    const body = expectError(await upload(bytes()), 400, code);
    expect(body.errorCategory).toBe(8);
    expect(stateSnapshot(sandbox)).toBe(before);
  });

  it.runIf(available)('a hash mismatch names both hashes', async () => {
    const body = expectError(await upload(darOf({ 'a.dalf': archiveOf(payload, 'e'.repeat(64)) }, 'a.dalf')), 400, 'DAR_PARSE_ERROR');
    expect(body.context['reason']).toBe(`Mismatching hashes! Expected ${'e'.repeat(64)} but got ${sha256(payload)}`);
  });

  it.runIf(available)('truncated and byte-flipped real DARs are answered with 200 or a 400 DAR error', async () => {
    const original = dar('splice-api-token-holding-v1');
    const codes = new Set(['INVALID_DAR', 'INVALID_ZIP_ENTRY', 'DAR_PARSE_ERROR', 'ZIP_BOMB']);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: 0, max: original.length - 1 }).map((n) => original.subarray(0, n)),
          fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => {
            const copy = Buffer.from(original);
            for (const [at, x] of flips) copy[at] = (copy[at] as number) ^ x;
            return copy;
          }),
        ),
        async (bytes) => {
          const r = await upload(bytes);
          if (r.status === 200) return;
          expect(r.status).toBe(400);
          expect(codes.has((r.json as { code: string }).code)).toBe(true);
        },
      ),
      { numRuns: 60, seed: 2323 },
    );
  });
});

describe.runIf(available)('startSandbox({ dars })', () => {
  it('uploads and vets the DARs before it serves, files and bytes alike', async () => {
    const file = join(sharedDir ?? '', 'dars', 'richtypes.dar');
    const s = await startSandbox({ dars: [file, dar('splice-api-token-holding-v1')] });
    try {
      const ids = ((await call(s.url, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;
      const vetted = s.state.vetting.vettedPackageIds(s.state.synchronizers[0]?.id ?? '');
      for (const name of ['richtypes', 'splice-api-token-holding-v1']) {
        for (const d of dalfsOf(dar(name))) {
          const id = ids.find((p) => Buffer.from(d).includes(Buffer.from(p)));
          expect(id !== undefined && vetted.has(id), name).toBe(true);
        }
      }
    } finally {
      await s.close();
    }
  });

  it('rejects with a DarLoadError naming the file and the participant error', async () => {
    await expect(startSandbox({ dars: [join(sharedDir ?? '', 'dars', 'README.md')] })).rejects.toMatchObject({ name: 'DarLoadError', message: expect.stringContaining('INVALID_DAR') as unknown });
    await expect(startSandbox({ dars: ['/nonexistent/x.dar'] })).rejects.toMatchObject({ name: 'DarLoadError', dar: '/nonexistent/x.dar' });
    const corrupt = darOf({ 'a.dalf': archiveOf(strToU8('x'), 'e'.repeat(64)) }, 'a.dalf');
    await expect(startSandbox({ dars: [corrupt] })).rejects.toMatchObject({ message: expect.stringContaining('Mismatching hashes!') as unknown, dar: 'dars[0]' });
  });
});
