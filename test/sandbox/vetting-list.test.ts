import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { fingerprint } from '../../src/sandbox/state/ids.js';
import { packageIdOf } from '../../src/sandbox/state/package-store.js';
import { call } from '../support/sandbox-http.js';
import { createUser, expectDecodeFailure, expectError, expectRedacted, testSecret } from './auth-test-kit.js';

interface VettedPackages {
  packages: { packageId: string; validFromInclusive: string | null; validUntilExclusive: string | null; packageName: string; packageVersion: string }[];
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
}
interface ListResponse {
  vettedPackages: VettedPackages[];
  nextPageToken: string;
}

let sandbox: Sandbox;
let admin: string;
let plain: string;
// Extra pairs whose identifiers are prefixes of each other: identifier-then-namespace order puts `zz`
// before `zz-a`, plain string order would not (':' sorts after '-').
const zz = `zz::${fingerprint('zz')}`;
const zzA = `zz-a::${fingerprint('zz-a')}`;
const unknownPackage = 'f'.repeat(64);

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: testSecret, synchronizers: 3, maxVettingPageSize: 4 });
  admin = await sandbox.token('participant_admin');
  plain = await createUser(sandbox, 'plain-lister');
  const { participantId, otherParticipantId } = sandbox.state;
  sandbox.state.vetting.set(zzA, participantId, { packages: [{ packageId: packageIdOf('daml-prim', '0.0.0') }], serial: 1 });
  sandbox.state.vetting.set(zz, otherParticipantId, {
    packages: [{ packageId: unknownPackage, validFromInclusive: '2026-01-01T00:00:00Z', validUntilExclusive: '2027-01-01T00:00:00.500Z' }],
    serial: 7,
  });
});
afterAll(() => sandbox.close());

const list = async (body: unknown, token = admin) => {
  const r = await call(sandbox.url, 'POST', '/v2/package-vetting/list', { token, body });
  expect(r.status, r.text).toBe(200);
  return r.json as ListResponse;
};
const pairs = (r: ListResponse) => r.vettedPackages.map((v) => `${v.synchronizerId} ${v.participantId}`);

/** All pairs, walked page by page until the empty page. */
async function walk(body: Record<string, unknown>): Promise<{ pages: ListResponse[]; all: string[] }> {
  const pages: ListResponse[] = [];
  let token = '';
  for (let i = 0; i < 50; i++) {
    const page = await list({ ...body, pageToken: token });
    pages.push(page);
    if (page.vettedPackages.length === 0) {
      expect(page.nextPageToken).toBe('');
      return { pages, all: pages.flatMap(pairs) };
    }
    expect(page.nextPageToken).toMatch(/^[A-Za-z0-9_-]+=*$/);
    token = page.nextPageToken;
  }
  throw new Error('the walk did not end');
}

function expectedOrder(): string[] {
  const s = sandbox.state;
  const syncs = [...s.synchronizers.map((x) => x.id), zz, zzA];
  const split = (uid: string) => [uid.slice(0, uid.lastIndexOf('::')), uid.slice(uid.lastIndexOf('::') + 2)] as const;
  const cmp = (a: string, b: string) => {
    const [ai, an] = split(a);
    const [bi, bn] = split(b);
    return ai < bi ? -1 : ai > bi ? 1 : an < bn ? -1 : an > bn ? 1 : 0;
  };
  return s.vetting
    .entries()
    .filter((e) => syncs.includes(e.synchronizerId))
    .sort((a, b) => cmp(a.synchronizerId, b.synchronizerId) || cmp(a.participantId, b.participantId))
    .map((e) => `${e.synchronizerId} ${e.participantId}`);
}

describe('POST /v2/package-vetting/list', () => {
  it('lists every pair with enriched packages, bounds and serials, sorted by identifier then namespace', async () => {
    const { all } = await walk({});
    expect(all).toEqual(expectedOrder());
    expect(all.indexOf(`${zz} ${sandbox.state.otherParticipantId}`)).toBeLessThan(all.indexOf(`${zzA} ${sandbox.state.participantId}`));
    const first = (await list({ pageSize: 1 })).vettedPackages[0] as VettedPackages;
    const global = sandbox.state.synchronizers[0]?.id;
    expect(first).toMatchObject({ synchronizerId: global, topologySerial: expect.any(Number) });
    const page = await list({ topologyStateFilter: { synchronizerIds: [global], participantIds: [sandbox.state.participantId] } });
    const demo = page.vettedPackages[0]?.packages.find((p) => p.packageName === 'ledger-rx-demo' && p.packageVersion === '1.1.0');
    expect(demo).toEqual({ packageId: packageIdOf('ledger-rx-demo', '1.1.0'), validFromInclusive: null, validUntilExclusive: null, packageName: 'ledger-rx-demo', packageVersion: '1.1.0' });
    expect(page.vettedPackages[0]?.packages.some((p) => p.packageName === 'ledger-rx-extras')).toBe(false);
    const foreign = (await list({ topologyStateFilter: { synchronizerIds: [zz] } })).vettedPackages[0];
    expect(foreign).toEqual({
      synchronizerId: zz,
      participantId: sandbox.state.otherParticipantId,
      topologySerial: 7,
      packages: [{ packageId: unknownPackage, validFromInclusive: '2026-01-01T00:00:00Z', validUntilExclusive: '2027-01-01T00:00:00.500Z', packageName: '', packageVersion: '' }],
    });
  });

  it('has no state of this participant on the second synchronizer at start', async () => {
    const second = sandbox.state.synchronizers[1]?.id as string;
    const page = await list({ topologyStateFilter: { synchronizerIds: [second] } });
    expect(page.vettedPackages.map((v) => v.participantId)).toEqual([sandbox.state.otherParticipantId]);
  });

  it.each([1, 2, 3, 4])('pages with pageSize %i: every pair exactly once, in order, ending with an empty page', async (pageSize) => {
    const { pages, all } = await walk({ pageSize });
    expect(all).toEqual(expectedOrder());
    for (const p of pages.slice(0, -1)) expect(p.vettedPackages.length).toBeLessThanOrEqual(pageSize);
    expect(pages).toHaveLength(Math.ceil(all.length / pageSize) + 1);
  });

  it('treats pageSize 0 (and a missing pageSize) as the server maximum', async () => {
    expect((await list({ pageSize: 0 })).vettedPackages).toHaveLength(4);
    expect((await list({})).vettedPackages).toHaveLength(4);
    expect((await list({ pageSize: '2' })).vettedPackages).toHaveLength(2);
  });

  it('filters by topology state: AND across fields, OR within a field; unknown ids match nothing', async () => {
    const [s1, s2, s3] = sandbox.state.synchronizers.map((s) => s.id) as [string, string, string];
    const { participantId: me, otherParticipantId: other } = sandbox.state;
    const bySync = await walk({ topologyStateFilter: { synchronizerIds: [s3, s1] } });
    expect(bySync.all).toEqual([`${s1} ${me}`, `${s1} ${other}`, `${s3} ${me}`, `${s3} ${other}`]);
    const byParticipant = await walk({ topologyStateFilter: { participantIds: [other] } });
    expect(byParticipant.all.every((p) => p.endsWith(other))).toBe(true);
    expect(byParticipant.all).toHaveLength(4);
    const both = await list({ topologyStateFilter: { synchronizerIds: [s2], participantIds: [me] } });
    expect(both).toEqual({ vettedPackages: [], nextPageToken: '' });
    const unknown = await list({ topologyStateFilter: { synchronizerIds: [`nowhere::${fingerprint('x')}`] } });
    expect(unknown).toEqual({ vettedPackages: [], nextPageToken: '' });
  });

  it('filters packages by id OR name prefix after paging, dropping emptied elements', async () => {
    const finance = packageIdOf('ledger-rx-finance', '1.0.0');
    const prim = packageIdOf('daml-prim', '0.0.0');
    const byPrefix = await walk({ packageMetadataFilter: { packageNamePrefixes: ['ledger-rx-fin'] } });
    // Only this participant vets finance: the other participant's elements are dropped.
    expect(byPrefix.all.every((p) => p.endsWith(sandbox.state.participantId))).toBe(true);
    expect(byPrefix.pages.flatMap((p) => p.vettedPackages.flatMap((v) => v.packages.map((x) => x.packageId)))).toEqual([finance, finance]);
    const mixed = await list({ packageMetadataFilter: { packageIds: [prim], packageNamePrefixes: ['ledger-rx-fin'] } });
    expect(mixed.vettedPackages[0]?.packages.map((p) => p.packageId).sort()).toEqual([finance, prim].sort());
    // A prefix never matches a package unknown here.
    const none = await walk({ packageMetadataFilter: { packageNamePrefixes: [''] }, topologyStateFilter: { synchronizerIds: [zz] } });
    expect(none.all).toEqual([]);
    // Paging first: with pageSize 2 the second element of the first page (the other participant on the
    // first synchronizer) is dropped, so the page is short although more pages follow.
    const page = await list({ pageSize: 2, packageMetadataFilter: { packageNamePrefixes: ['ledger-rx-fin'] } });
    expect(page.vettedPackages).toHaveLength(1);
    expect(page.nextPageToken).not.toBe('');
    // The next page (the other participant on the first two synchronizers) is filtered out completely: it
    // comes back empty with no token although the third synchronizer would match — the server's quirk.
    expect(await list({ pageSize: 2, pageToken: page.nextPageToken, packageMetadataFilter: { packageNamePrefixes: ['ledger-rx-fin'] } })).toEqual({
      vettedPackages: [],
      nextPageToken: '',
    });
  });

  it('answers the deprecated GET /v2/package-vetting with a JSON body like the list (up to 3.5; gone in 3.6)', async () => {
    const on35 = await startSandbox({ authSecret: testSecret, synchronizers: 3, maxVettingPageSize: 4, apiVersion: '3.5' });
    try {
      const token = await on35.token('participant_admin');
      const body = { pageSize: 3, topologyStateFilter: { participantIds: [on35.state.otherParticipantId] } };
      const viaGet = await call(on35.url, 'GET', '/v2/package-vetting', { token, body, specVersion: '3.5' });
      expect(viaGet.status).toBe(200);
      const viaList = await call(on35.url, 'POST', '/v2/package-vetting/list', { token, body, specVersion: '3.5' });
      expect((viaGet.json as ListResponse).vettedPackages.length).toBeGreaterThan(0);
      expect(viaGet.json).toEqual(viaList.json);
      expectDecodeFailure(await call(on35.url, 'GET', '/v2/package-vetting', { token, specVersion: '3.5' }));
    } finally {
      await on35.close();
    }
    expect((await call(sandbox.url, 'GET', '/v2/package-vetting', { token: admin, body: {} })).status).toBe(404);
  });

  it('lets any authenticated user list; refuses a missing token', async () => {
    expect((await list({ pageSize: 1 }, plain)).vettedPackages).toHaveLength(1);
    expectRedacted(await call(sandbox.url, 'POST', '/v2/package-vetting/list', { body: {} }), 401);
  });
});

describe('vetting list validation', () => {
  const good = `ok::${fingerprint('ok')}`;
  const tokenOf = (bytes: number[]) => Buffer.from(bytes).toString('base64url');
  const protoToken = (sync: string, participant: string) => {
    const field = (n: number, s: string) => [(n << 3) | 2, Buffer.byteLength(s), ...Buffer.from(s)];
    return tokenOf([...field(1, sync), ...field(2, participant)]);
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ['a malformed package id', { packageMetadataFilter: { packageIds: ['not a valid id!'] } }, 'ValueConversionError(package_ids,non expected character 0x21'],
    ['a malformed synchronizer id', { topologyStateFilter: { synchronizerIds: ['global'] } }, 'ValueConversionError(synchronizer_ids,'],
    ['a malformed participant id', { topologyStateFilter: { participantIds: ['participant1::xyz'] } }, 'ValueConversionError(participant_ids,'],
    ['a token that is not base64', { pageToken: 'not base64!' }, 'ValueConversionError(page_token,Invalid page token for ListVettedPackagesRequest: Failed base64 decoding)'],
    ['a token with standard-alphabet characters', { pageToken: 'ab+/' }, 'Failed base64 decoding'],
    ['a token that is not a message', { pageToken: tokenOf([0xff]) }, 'ValueConversionError(page_token,Invalid page token for ListVettedPackagesRequest: Failed proto decoding)'],
    ['a token with a bad synchronizer id', { pageToken: protoToken('nope', good) }, "Couldn't extract token's synchronizer ID: "],
    ['a token with a bad participant id', { pageToken: protoToken(good, 'nope') }, "Couldn't extract token's participant ID: "],
    ['a negative page size', { pageSize: -1 }, 'InvariantViolation(Some(page_size),'],
    ['a page size above the maximum', { pageSize: 5 }, "InvariantViolation(Some(page_size),Page size must not exceed the server's maximum of 4)"],
    // Order: package ids, then topology ids, then token, then page size.
    ['bad package id and bad page size', { pageSize: 99, packageMetadataFilter: { packageIds: ['x!'] } }, 'ValueConversionError(package_ids,'],
    ['bad synchronizer and bad token', { pageToken: '!', topologyStateFilter: { synchronizerIds: ['x'] } }, 'ValueConversionError(synchronizer_ids,'],
    ['bad token and bad page size', { pageToken: '!', pageSize: -5 }, 'Failed base64 decoding'],
  ];
  it.each(cases)('rejects %s with PROTO_DESERIALIZATION_FAILURE', async (_name, body, reason) => {
    const r = await call(sandbox.url, 'POST', '/v2/package-vetting/list', { token: admin, body });
    const e = expectError(r, 400, 'PROTO_DESERIALIZATION_FAILURE');
    expect(e).toMatchObject({ cause: 'Deserialization of protobuf message failed', errorCategory: 8, grpcCodeValue: 3, definiteAnswer: null });
    expect(e.context['reason']).toContain(reason);
  });

  it('decodes tokens with or without padding', async () => {
    const page = await list({ pageSize: 1 });
    const unpadded = page.nextPageToken.replace(/=+$/, '');
    expect(await list({ pageSize: 1, pageToken: unpadded })).toEqual(await list({ pageSize: 1, pageToken: page.nextPageToken }));
  });

  it.each([
    ['a non-numeric page size', { pageSize: 'ten' }],
    ['a null page token', { pageToken: null }],
    ['a filter that is not an object', { topologyStateFilter: [] }],
    ['malformed JSON', undefined],
  ])('answers %s with the 400 text/plain decode failure, before authentication', async (_name, body) => {
    const r = await call(sandbox.url, 'POST', '/v2/package-vetting/list', body === undefined ? { rawBody: '{"pageSize":' } : { body });
    expectDecodeFailure(r);
  });

  it('accepts null filters (absent options)', async () => {
    expect((await list({ packageMetadataFilter: null, topologyStateFilter: null, pageSize: 1 })).vettedPackages).toHaveLength(1);
  });
});
