import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { addUser, checkAgainstLog, postUpdates } from './ledger-support.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
  addUser(sandbox, 'zoe-user', []);
});
afterAll(() => sandbox.close());

const allocate = (body: unknown, raw?: string, s = sandbox) => call(s.url, 'POST', '/v2/parties', raw === undefined ? { body } : { rawBody: raw });

describe('POST /v2/parties', () => {
  it('allocates <hint>::<namespace> and appends its topology transaction', async () => {
    const before = sandbox.ledgerEnd();
    const r = await allocate({ partyIdHint: 'Zoe', localMetadata: { resourceVersion: '', annotations: { team: 'blue' } }, userId: 'zoe-user' });
    expect(r.status, r.text).toBe(200);
    const zoe = `Zoe::${sandbox.state.namespace}`;
    expect(r.json).toEqual({ partyDetails: { party: zoe, isLocal: true, localMetadata: { resourceVersion: '0', annotations: { team: 'blue' } }, identityProviderId: '' } });
    expect(sandbox.ledgerEnd()).toBeGreaterThan(before);
    expect(sandbox.updates({ beginExclusive: before })).toEqual([
      expect.objectContaining({ kind: 'TopologyTransaction', party: zoe, participantId: sandbox.state.participantId, participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' }),
    ]);
    expect([...(sandbox.state.users.get('zoe-user')?.rights.values() ?? [])]).toEqual([{ kind: 'CanActAs', party: zoe }]);
    const end = sandbox.ledgerEnd();
    const read = await postUpdates(sandbox, { beginExclusive: before, endInclusive: end, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [zoe] } } } });
    const [element] = checkAgainstLog(sandbox, read.json, { topology: [zoe] }, { beginExclusive: before, endInclusive: end });
    expect(element?.kind).toBe('TopologyTransaction');
  });

  it.each([
    { name: 'duplicate', body: { partyIdHint: 'Alice' }, status: 409, code: 'PARTY_ALREADY_EXISTS' },
    { name: 'invalid hint', body: { partyIdHint: 'no way!' }, status: 400, code: 'INVALID_ARGUMENT' },
    { name: 'hint with ::', body: { partyIdHint: 'a::b' }, status: 400, code: 'INVALID_ARGUMENT' },
    { name: 'unknown user', body: { partyIdHint: 'Yuri', userId: 'nobody' }, status: 404, code: 'USER_NOT_FOUND' },
    { name: 'unknown synchronizer', body: { partyIdHint: 'Yuri', synchronizerId: `x::1220${'0'.repeat(64)}` }, status: 400, code: 'INVALID_FIELD' },
  ])('rejects: $name', async ({ body, status, code }) => {
    const before = sandbox.ledgerEnd();
    const r = await allocate(body);
    expect(r.status).toBe(status);
    expect(r.json).toMatchObject({ code });
    expect(sandbox.ledgerEnd()).toBe(before);
  });

  it('answers undecodable bodies with 400 text/plain', async () => {
    for (const r of [await allocate({ partyIdHint: 5 }), await allocate(undefined, '{')]) {
      expect(r.status).toBe(400);
      expect(r.contentType).toMatch(/^text\/plain/);
    }
  });

  it('generates a hint when none is given', async () => {
    const r = await allocate({});
    expect((r.json as { partyDetails: { party: string } }).partyDetails.party).toMatch(new RegExp(`^party-[0-9a-f]{12}::${sandbox.state.namespace}$`));
  });

  it('needs a synchronizer id when connected to several synchronizers', async () => {
    const two = await startSandbox({ synchronizers: 2 });
    try {
      expect((await allocate({ partyIdHint: 'Kim' }, undefined, two)).json).toMatchObject({ code: 'INVALID_ARGUMENT' });
      const sync = two.state.synchronizers[1]?.id as string;
      expect((await allocate({ partyIdHint: 'Kim', synchronizerId: sync }, undefined, two)).status).toBe(200);
      expect(two.updates().at(-1)).toMatchObject({ kind: 'TopologyTransaction', synchronizerId: sync });
    } finally {
      await two.close();
    }
  });
});

describe('GET /v2/parties', () => {
  type Listed = { partyDetails: { party: string; isLocal: boolean }[]; nextPageToken: string };

  it('lists local and remote parties, sorted by id', async () => {
    const r = await call(sandbox.url, 'GET', '/v2/parties');
    const listed = (r.json as Listed).partyDetails;
    const ids = listed.map((p) => p.party);
    expect(ids).toEqual([...ids].sort());
    expect(listed).toContainEqual(expect.objectContaining({ party: sandbox.partyId('Dave'), isLocal: false }));
    expect(listed).toContainEqual(expect.objectContaining({ party: sandbox.partyId('Alice'), isLocal: true }));
    expect((r.json as Listed).nextPageToken).toBe('');
  });

  it('pages with opaque tokens until nextPageToken is empty', async () => {
    const all = ((await call(sandbox.url, 'GET', '/v2/parties')).json as Listed).partyDetails.map((p) => p.party);
    const seen: string[] = [];
    let token = '';
    for (let i = 0; i < 20; i++) {
      const page = (await call(sandbox.url, 'GET', `/v2/parties?pageSize=2${token ? `&pageToken=${token}` : ''}`)).json as Listed;
      expect(page.partyDetails.length).toBeLessThanOrEqual(2);
      seen.push(...page.partyDetails.map((p) => p.party));
      token = page.nextPageToken;
      if (token === '') break;
    }
    expect(seen).toEqual(all);
  });

  it('filters by party id prefix', async () => {
    const r = await call(sandbox.url, 'GET', '/v2/parties?filter-party=Bo');
    expect((r.json as Listed).partyDetails.map((p) => p.party)).toEqual([sandbox.partyId('Bob')]);
  });

  it.each([
    { query: '?pageSize=-1', status: 400, code: 'INVALID_ARGUMENT' },
    { query: '?pageSize=10001', status: 400, code: 'INVALID_ARGUMENT' },
    { query: '?pageToken=garbage', status: 400, code: 'INVALID_FIELD' },
  ])('rejects $query', async ({ query, status, code }) => {
    const r = await call(sandbox.url, 'GET', `/v2/parties${query}`);
    expect(r.status).toBe(status);
    expect(r.json).toMatchObject({ code });
  });

  it('answers a non-integer page size with 400 text/plain', async () => {
    const r = await call(sandbox.url, 'GET', '/v2/parties?pageSize=two');
    expect(r.status).toBe(400);
    expect(r.text).toBe('Invalid value for: query parameter pageSize');
  });
});
