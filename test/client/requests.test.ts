import { afterEach, describe, expect, it } from 'vitest';
import { fieldMask } from '../../src/client/index.js';
import { ALICE, commands, user, versionResponse, vetted } from './support/fixtures.js';
import { createMockLedger } from './support/mock-ledger.js';

let ledger: ReturnType<typeof createMockLedger>;
afterEach(async () => {
  await ledger.done();
});

describe('request shapes (method, path, body, headers)', () => {
  it('listVettedPackages → POST /v2/package-vetting/list with the request as body', async () => {
    ledger = createMockLedger();
    const page = { vettedPackages: [vetted('p1')], nextPageToken: 'tok' };
    ledger.expect('POST', '/v2/package-vetting/list', { data: page });
    const request = { pageSize: 10, packageMetadataFilter: { packageNamePrefixes: ['my-'] } };
    expect(await ledger.client.listVettedPackages(request)).toEqual(page);
    const [sent] = ledger.requests;
    expect(sent?.body).toEqual(request);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['accept']).toBe('application/json');
  });

  it('updateVettedPackages defaults to the deprecated POST /v2/package-vetting on a participant before 3.4.12 and passes dryRun', async () => {
    ledger = createMockLedger({ participantVersion: '3.4.11' });
    const response = { pastVettedPackages: null, newVettedPackages: vetted('p1', 1) };
    ledger.expect('POST', '/v2/package-vetting', { data: response });
    const request = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'm', packageVersion: '1.0.0' }] } } } }], dryRun: true };
    expect(await ledger.client.updateVettedPackages(request)).toEqual(response);
    expect(ledger.requests[0]?.body).toEqual(request);
    expect(ledger.requests[0]?.path).toBe('/v2/package-vetting');
  });

  it("updateVettedPackages with endpoint 'update' → POST /v2/package-vetting/update", async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/package-vetting/update', { data: { newVettedPackages: vetted('p1', 2) } });
    await ledger.client.updateVettedPackages({ changes: [], dryRun: false }, { endpoint: 'update' });
    expect(ledger.requests[0]?.body).toEqual({ changes: [], dryRun: false });
  });

  it('submit → POST /v2/commands/async/submit', async () => {
    ledger = createMockLedger();
    ledger.expect('POST', '/v2/commands/async/submit', { data: {} });
    const body = commands({ submissionId: 's-1', deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 60, nanos: 0 } } } });
    expect(await ledger.client.submit(body)).toEqual({});
    expect(ledger.requests[0]?.body).toEqual(body);
  });

  it('submitAndWaitForReassignment → POST /v2/commands/submit-and-wait-for-reassignment', async () => {
    ledger = createMockLedger();
    const reassignment = {
      updateId: 'u', commandId: 'r-1', workflowId: '', offset: 7, events: [], traceContext: null,
      recordTime: '2026-06-30T10:15:30Z', synchronizerId: 'sync-b', paidTrafficCost: null,
    };
    ledger.expect('POST', '/v2/commands/submit-and-wait-for-reassignment', { data: { reassignment } });
    const request = {
      reassignmentCommands: {
        commandId: 'r-1', submitter: ALICE,
        commands: [{ command: { UnassignCommand: { value: { contractId: '00ab', source: 'sync-a', target: 'sync-b' } } } }],
      },
    };
    expect((await ledger.client.submitAndWaitForReassignment(request)).reassignment.offset).toBe(7);
    expect(ledger.requests[0]?.body).toEqual(request);
  });

  it('updateUser → PATCH /v2/users/{id} with the id URL-encoded', async () => {
    ledger = createMockLedger();
    const id = 'alice@corp#ops|team+1';
    ledger.expect('PATCH', `/v2/users/${encodeURIComponent(id)}`, { data: { user: user(id) } });
    const u = { id, primaryParty: ALICE };
    const request = { user: u, updateMask: fieldMask(u) };
    expect((await ledger.client.updateUser(id, request)).user.id).toBe(id);
    expect(ledger.requests[0]?.path).toBe('/v2/users/alice%40corp%23ops%7Cteam%2B1');
    expect(ledger.requests[0]?.body).toEqual({ user: u, updateMask: { paths: ['primary_party'] } });
  });

  it('revokeUserRights → PATCH /v2/users/{id}/rights', async () => {
    ledger = createMockLedger();
    ledger.expect('PATCH', '/v2/users/bob%3A1/rights', { data: { newlyRevokedRights: [] } });
    const request = { userId: 'bob:1', rights: [{ kind: { CanActAs: { value: { party: ALICE } } } }] };
    expect(await ledger.client.revokeUserRights('bob:1', request)).toEqual({ newlyRevokedRights: [] });
    expect(ledger.requests[0]?.method).toBe('PATCH');
    expect(ledger.requests[0]?.body).toEqual(request);
  });

  it('version, ledgerEnd and latestPrunedOffsets are GETs without a body', async () => {
    ledger = createMockLedger();
    ledger.expect('GET', '/v2/version', { data: versionResponse });
    ledger.expect('GET', '/v2/state/ledger-end', { data: { offset: 42, synchronizerTimes: [] } });
    ledger.expect('GET', '/v2/state/latest-pruned-offsets', { data: { participantPrunedUpToInclusive: 5, allDivulgedContractsPrunedUpToInclusive: 5 } });
    expect((await ledger.client.version()).version).toBe('3.6.0');
    expect((await ledger.client.ledgerEnd()).offset).toBe(42);
    expect((await ledger.client.latestPrunedOffsets()).participantPrunedUpToInclusive).toBe(5);
    expect(ledger.requests.map((r) => [r.method, r.bodyText, r.headers['content-type']])).toEqual([
      ['GET', undefined, undefined], ['GET', undefined, undefined], ['GET', undefined, undefined],
    ]);
  });

  it('supporting routes: parties, users, rights, packages', async () => {
    ledger = createMockLedger();
    const party = { party: ALICE, isLocal: true, localMetadata: null, identityProviderId: '' };
    ledger.expect('POST', '/v2/parties', { data: { partyDetails: party } });
    ledger.expect('GET', '/v2/parties', { data: { partyDetails: [party], nextPageToken: '' } });
    ledger.expect('POST', '/v2/users', { data: { user: user('carol') } });
    ledger.expect('GET', '/v2/users/carol', { data: { user: user('carol') } });
    ledger.expect('GET', '/v2/users/carol/rights', { data: { rights: [] } });
    ledger.expect('POST', '/v2/users/carol/rights', { data: { newlyGrantedRights: [{ kind: { ParticipantAdmin: { value: {} } } }] } });
    ledger.expect('GET', '/v2/packages', { data: { packageIds: ['p1'] } });

    expect((await ledger.client.allocateParty({ partyIdHint: 'Alice' })).partyDetails.party).toBe(ALICE);
    expect((await ledger.client.listParties()).partyDetails).toHaveLength(1);
    await ledger.client.createUser({ user: { id: 'carol' }, rights: [] });
    expect((await ledger.client.getUser('carol')).user.id).toBe('carol');
    expect((await ledger.client.listUserRights('carol')).rights).toEqual([]);
    const granted = await ledger.client.grantUserRights('carol', { userId: 'carol', rights: [{ kind: { ParticipantAdmin: { value: {} } } }] });
    expect(granted.newlyGrantedRights).toHaveLength(1);
    expect((await ledger.client.listPackages()).packageIds).toEqual(['p1']);

    expect(ledger.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v2/parties', 'GET /v2/parties', 'POST /v2/users', 'GET /v2/users/carol', 'GET /v2/users/carol/rights',
      'POST /v2/users/carol/rights', 'GET /v2/packages',
    ]);
    expect(ledger.requests[0]?.body).toEqual({ partyIdHint: 'Alice' });
    expect(ledger.requests[2]?.body).toEqual({ user: { id: 'carol' }, rights: [] });
  });

  it('keeps a base path prefix and sends extra headers', async () => {
    ledger = createMockLedger({ baseUrl: 'http://ledger.test:7575/api/', headers: { traceparent: '00-abc-def-01', 'X-Tenant': 't1' } });
    ledger.expect('GET', '/api/v2/version', { data: versionResponse });
    await ledger.client.version();
    expect(ledger.requests[0]?.headers['traceparent']).toBe('00-abc-def-01');
    expect(ledger.requests[0]?.headers['x-tenant']).toBe('t1');
  });
});
