import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxApiVersion } from '../../src/sandbox/index.js';
import { call, type RawResponse } from '../support/sandbox-http.js';
import { openStream, readToClose } from '../support/sandbox-ws.js';
import { openapiPath } from '../support/shared-dir.js';
import { loadOpenapi } from '../support/openapi.js';
import { expectDecodeFailure, expectError } from './auth-test-kit.js';
import { ACS, createIou, elementsOf, filters, interfaceFilter, templateFilter, updateFormat } from './ledger-support.js';

/**
 * The sandbox serves each release line with that line's endpoints, answer fields, `/v2/version` and
 * filter rules (docs/participant-versions.md). Every answer here is checked against the spec of the line it
 * was served for (openapi-3.4.yaml, -3.5.yaml, -3.6.yaml), over raw HTTP and raw WebSocket.
 */

const versions: readonly SandboxApiVersion[] = ['3.4', '3.5', '3.6'];

/** Paths the sandbox serves on some line; each version test checks which answer the legacy 404. */
const versionedPaths: readonly (readonly [string, string, unknown])[] = [
  ['POST', '/v2/updates/get-updates-page', {}],
  ['GET', '/v2/state/active-contracts-page', undefined],
  ['POST', '/v2/commands/command-completions', {}],
  ['POST', '/v2/updates/update-by-hash', {}],
  ['POST', '/v2/commands/completion-by-hash', {}],
  ['POST', '/v2/package-vetting', {}],
  ['GET', '/v2/package-vetting', undefined],
];

/** Whether the spec of `version` has `method path`. */
function specHas(version: SandboxApiVersion, method: string, path: string): boolean {
  return loadOpenapi(version).paths[path]?.[method.toLowerCase()] !== undefined;
}

function isLegacyNotFound(r: RawResponse, method: string, path: string): boolean {
  const body = r.json as { errors?: string[]; status?: number } | undefined;
  return r.status === 404 && body?.status === 404 && body.errors?.length === 1 && body.errors[0]?.startsWith(`${method}, uri: `) === true && body.errors[0].endsWith(path) && !('code' in body);
}

describe.skipIf(!openapiPath).each(versions)('the sandbox serving %s', (version) => {
  let sandbox: Sandbox;
  let alice: string;
  let bob: string;
  let demoId: string;
  const spec = { specVersion: version } as const;

  beforeAll(async () => {
    sandbox = await startSandbox({ apiVersion: version, seed: 40 });
    alice = sandbox.partyId('Alice');
    bob = sandbox.partyId('Bob');
    demoId = (sandbox.state.packages.byName('ledger-rx-demo')[0] as { packageId: string }).packageId;
  });
  afterAll(() => sandbox.close());

  it('GET /v2/version reports the line as a Canton build of that line does, with the same features everywhere', async () => {
    const r = await call(sandbox.url, 'GET', '/v2/version', spec);
    expect(r.status).toBe(200);
    const info = loadOpenapi(version) as unknown as { info: { version: string } };
    expect((r.json as { version: string }).version).toBe(info.info.version);
    expect((r.json as { version: string }).version.startsWith(`${version}.`)).toBe(true);
    expect(Object.keys((r.json as { features: object }).features).sort()).toEqual(['experimental', 'offsetCheckpoint', 'packageFeature', 'partyManagement', 'userManagement']);
  });

  it('a path the line does not have answers the legacy 404, one it has does not', async () => {
    for (const [method, path, body] of versionedPaths) {
      const r = await call(sandbox.url, method, path, { ...spec, ...(body === undefined ? {} : { body }), skipSpecCheck: true });
      expect(isLegacyNotFound(r, method, path), `${version} ${method} ${path}: ${r.status} ${r.text.slice(0, 200)}`).toBe(!specHas(version, method, path));
    }
  });

  it('transactions carry the fields of the line: contractKeyHash and implementationPackageId from 3.5, transactionHash from 3.6', async () => {
    const r = await call(sandbox.url, 'POST', '/v2/updates', {
      ...spec,
      body: { beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat('any', ACS, { filters: filters(interfaceFilter('#ledger-rx-demo:Holding:Holding', true)) }) },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const txs = elementsOf(r.json).filter((e) => e.kind === 'Transaction');
    expect(txs.length).toBeGreaterThan(0);
    const tx = (txs[0] as { value: Record<string, unknown> }).value;
    expect('transactionHash' in tx).toBe(version === '3.6');
    expect(tx['externalTransactionHash']).toBeNull();
    const created = (tx['events'] as { CreatedEvent?: Record<string, unknown> }[]).find((e) => e.CreatedEvent)?.CreatedEvent as Record<string, unknown>;
    expect('contractKeyHash' in created).toBe(version !== '3.4');
    const view = (created['interfaceViews'] as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(view['viewValue']).toBeTypeOf('object');
    expect('implementationPackageId' in view).toBe(version !== '3.4');
  });

  it('the ledger end has synchronizerTimes from 3.6 on', async () => {
    const r = await call(sandbox.url, 'GET', '/v2/state/ledger-end', spec);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json as object).sort()).toEqual(version === '3.6' ? ['offset', 'synchronizerTimes'] : ['offset']);
  });

  it('users have primaryPartyAuthentication from 3.5 on; CanActAsAnyParty is a right from 3.6 on (before, a decode failure)', async () => {
    const created = await call(sandbox.url, 'POST', '/v2/users', { ...spec, body: { user: { id: `u-${version}`, primaryParty: alice }, rights: [] } });
    expect(created.status, created.text).toBe(200);
    expect('primaryPartyAuthentication' in (created.json as { user: object }).user).toBe(version !== '3.4');
    const grant = await call(sandbox.url, 'POST', `/v2/users/u-${version}/rights`, { ...spec, body: { userId: `u-${version}`, rights: [{ kind: { CanActAsAnyParty: { value: {} } } }] } });
    if (version === '3.6') {
      expect(grant.status, grant.text).toBe(200);
      expect(grant.json).toEqual({ newlyGrantedRights: [{ kind: { CanActAsAnyParty: { value: {} } } }] });
    } else {
      expectDecodeFailure(grant);
      expect(grant.text).toContain("'CanActAsAnyParty'");
    }
  });

  it('active contracts carry streamContinuationToken from 3.5 on', async () => {
    const r = await call(sandbox.url, 'POST', '/v2/state/active-contracts', {
      ...spec,
      body: { activeAtOffset: sandbox.ledgerEnd(), eventFormat: { filtersByParty: { [alice]: filters() }, verbose: false } },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const entries = r.json as Record<string, unknown>[];
    expect(entries.length).toBeGreaterThan(0);
    expect('streamContinuationToken' in (entries[0] as object)).toBe(version !== '3.4');
  });

  it('a template filter by package id: 3.4 reads it by its package name, later lines reject it', async () => {
    const byName = updateFormat([alice], ACS, { filters: filters(templateFilter('#ledger-rx-demo:Iou:Iou')) });
    const byId = updateFormat([alice], ACS, { filters: filters(templateFilter(`${demoId}:Iou:Iou`)) });
    const range = { beginExclusive: 0, endInclusive: sandbox.ledgerEnd() };
    const r = await call(sandbox.url, 'POST', '/v2/updates', { ...spec, body: { ...range, updateFormat: byId } });
    if (version === '3.4') {
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      const named = await call(sandbox.url, 'POST', '/v2/updates', { ...spec, body: { ...range, updateFormat: byName } });
      expect(elementsOf(r.json).length).toBeGreaterThan(0);
      expect(r.json).toEqual(named.json);
      const unknown = updateFormat([alice], ACS, { filters: filters(templateFilter(`${demoId}:Iou:Nope`)) });
      const e = expectError(await call(sandbox.url, 'POST', '/v2/updates', { ...spec, body: { ...range, updateFormat: unknown } }), 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
      expect(e.cause).toContain(`Templates do not exist: [${demoId}:Iou:Nope]`);
      expect(e.resources).toEqual([['TEMPLATE_ID', `${demoId}:Iou:Nope`]]);
    } else {
      const e = expectError(r, 400, 'INVALID_FIELD');
      expect(e.cause).toContain(`Received an identifier with package ID ${demoId}, but expected a package name.`);
    }
  });

  it('completions carry transactionHash from 3.6 on', async () => {
    const from = sandbox.ledgerEnd();
    await sandbox.submit({ commands: [createIou(alice, bob)], commandId: `c-${version}`, actAs: [alice], userId: 'app' });
    const r = await call(sandbox.url, 'POST', '/v2/commands/completions?limit=1', { ...spec, body: { userId: 'app', parties: [alice], beginExclusive: from } });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const completion = (r.json as { completionResponse: { Completion: { value: Record<string, unknown> } } }[])[0]?.completionResponse.Completion.value;
    expect(completion?.['commandId']).toBe(`c-${version}`);
    expect(completion !== undefined && 'transactionHash' in completion).toBe(version === '3.6');
  });

  it('WebSocket frames of /v2/updates match the line; a channel the line lacks answers the upgrade with the legacy 404', async () => {
    const { frames, close } = await readToClose(
      sandbox.url,
      '/v2/updates',
      { beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat([alice], ACS) },
      { specVersion: version },
    );
    expect(close.code).toBe(1000);
    const tx = frames.map((f) => (f as { update: { Transaction?: { value: object } } }).update.Transaction?.value).find((v) => v !== undefined);
    expect(tx !== undefined && 'transactionHash' in tx).toBe(version === '3.6');
    const upgrade = openStream(sandbox.url, '/v2/commands/command-completions', { parties: [alice] }, { specVersion: version });
    if (version === '3.4') {
      await expect(upgrade).rejects.toThrow(/Unexpected server response: 404/);
    } else {
      const stream = await upgrade; // upgraded: the channel exists (an open-ended stream, closed here)
      stream.ws.close();
      expect((await stream.closed).code).toBe(1005);
    }
  });
});

describe.skipIf(!openapiPath)('update-by-hash and completion-by-hash (3.6)', () => {
  let sandbox: Sandbox;
  let alice: string;
  let bob: string;
  const spec = { specVersion: '3.6' } as const;

  beforeAll(async () => {
    sandbox = await startSandbox({ apiVersion: '3.6', seed: 5 });
    alice = sandbox.partyId('Alice');
    bob = sandbox.partyId('Bob');
  });
  afterAll(() => sandbox.close());

  it('an externally signed submission carries its hash on the transaction and the completion, and both reads find it', async () => {
    const from = sandbox.ledgerEnd();
    const result = await sandbox.submit({ commands: [createIou(alice, bob)], commandId: 'ext-1', actAs: [alice], userId: 'app' }, { externallySigned: true });
    const hash = result.transactionHash as string;
    expect(Buffer.from(hash, 'base64')).toHaveLength(34);
    expect(Buffer.from(hash, 'base64').subarray(0, 2)).toEqual(Buffer.from([0x12, 0x20]));

    const byHash = await call(sandbox.url, 'POST', '/v2/updates/update-by-hash', { ...spec, body: { transactionHash: hash, updateFormat: updateFormat([alice], ACS) } });
    expect(byHash.status, byHash.text.slice(0, 300)).toBe(200);
    const tx = (byHash.json as { update: { Transaction: { value: Record<string, unknown> } } }).update.Transaction.value;
    expect(tx).toMatchObject({ updateId: result.updateId, offset: result.offset, commandId: 'ext-1', transactionHash: hash, externalTransactionHash: hash });
    const listed = await call(sandbox.url, 'POST', '/v2/updates', { ...spec, body: { beginExclusive: from, endInclusive: result.offset, updateFormat: updateFormat([alice], ACS) } });
    expect(elementsOf(listed.json).find((e) => e.offset === result.offset)?.value).toEqual(tx);

    const completion = await call(sandbox.url, 'POST', '/v2/commands/completion-by-hash', { ...spec, body: { transactionHash: hash } });
    expect(completion.status, completion.text.slice(0, 300)).toBe(200);
    expect(completion.json).toMatchObject({ acceptedCompletion: { commandId: 'ext-1', updateId: result.updateId, offset: result.offset, transactionHash: hash }, lastRejectedCompletions: [] });

    // The same submission without the flag has no hash.
    const plain = await sandbox.submit({ commands: [createIou(alice, bob)], commandId: 'plain-1', actAs: [alice], userId: 'app' });
    expect(plain.transactionHash).toBeUndefined();
  });

  it('a rejected externally signed submission is among lastRejectedCompletions, newest first', async () => {
    sandbox.injectSubmissionFault({ kind: 'timeout' });
    await expect(sandbox.submit({ commands: [createIou(alice, bob)], commandId: 'ext-2', actAs: [alice], userId: 'app', submissionId: 's-1' }, { externallySigned: true })).rejects.toThrow();
    const hash = (await import('../../src/sandbox/submit/sandbox-transaction-hash.js')).sandboxTransactionHash(sandbox.state.participantId, 'app', [alice], 'ext-2', 's-1');
    const r = await call(sandbox.url, 'POST', '/v2/commands/completion-by-hash', { ...spec, body: { transactionHash: hash } });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const body = r.json as { acceptedCompletion: unknown; lastRejectedCompletions: { commandId: string; status: { code: number }; transactionHash: string }[] };
    expect(body.acceptedCompletion).toBeNull();
    expect(body.lastRejectedCompletions).toHaveLength(1);
    expect(body.lastRejectedCompletions[0]).toMatchObject({ commandId: 'ext-2', transactionHash: hash });
    expect(body.lastRejectedCompletions[0]?.status.code).not.toBe(0);
    expectError(await call(sandbox.url, 'POST', '/v2/updates/update-by-hash', { ...spec, body: { transactionHash: hash, updateFormat: updateFormat([alice], ACS) } }), 404, 'UPDATE_NOT_FOUND');
  });

  it('an unknown hash, a format that filters the transaction out, an empty hash and a missing format get the server errors', async () => {
    const unknown = Buffer.concat([Buffer.from([0x12, 0x20]), Buffer.alloc(32, 7)]);
    const u = expectError(await call(sandbox.url, 'POST', '/v2/updates/update-by-hash', { ...spec, body: { transactionHash: unknown.toString('base64'), updateFormat: updateFormat([alice], ACS) } }), 404, 'UPDATE_NOT_FOUND');
    expect(u).toMatchObject({ cause: 'Update not found, or not visible.', resources: [['TRANSACTION_HASH', unknown.toString('hex')]] });
    const c = expectError(await call(sandbox.url, 'POST', '/v2/commands/completion-by-hash', { ...spec, body: { transactionHash: unknown.toString('base64') } }), 404, 'COMPLETION_NOT_FOUND');
    expect(c).toMatchObject({ cause: 'Completion not found, or not visible.', resources: [['TRANSACTION_HASH', unknown.toString('hex')]] });

    const result = await sandbox.submit({ commands: [createIou(alice, alice)], commandId: 'ext-3', actAs: [alice], userId: 'app' }, { externallySigned: true });
    const hash = result.transactionHash as string;
    expectError(await call(sandbox.url, 'POST', '/v2/updates/update-by-hash', { ...spec, body: { transactionHash: hash, updateFormat: updateFormat([bob], ACS) } }), 404, 'UPDATE_NOT_FOUND');

    expectError(await call(sandbox.url, 'POST', '/v2/updates/update-by-hash', { ...spec, body: { transactionHash: '', updateFormat: updateFormat([alice], ACS) } }), 400, 'MISSING_FIELD');
    const noFormat = expectError(await call(sandbox.url, 'POST', '/v2/updates/update-by-hash', { ...spec, body: { transactionHash: hash } }), 400, 'MISSING_FIELD');
    expect(noFormat.context['field_name']).toBe('update_format');
    const empty = expectError(await call(sandbox.url, 'POST', '/v2/commands/completion-by-hash', { ...spec, body: {} }), 400, 'INVALID_ARGUMENT');
    expect(empty.cause).toContain('Missing field: transaction_hash');
    expectDecodeFailure(await call(sandbox.url, 'POST', '/v2/commands/completion-by-hash', { ...spec, body: { transactionHash: 'not base64!' } }));
  });

  it('pruning hides what precedes it', async () => {
    const result = await sandbox.submit({ commands: [createIou(alice, bob)], commandId: 'ext-4', actAs: [alice], userId: 'app' }, { externallySigned: true });
    sandbox.prune(result.offset);
    const hash = result.transactionHash as string;
    expectError(await call(sandbox.url, 'POST', '/v2/updates/update-by-hash', { ...spec, body: { transactionHash: hash, updateFormat: updateFormat([alice], ACS) } }), 404, 'UPDATE_NOT_FOUND');
    expectError(await call(sandbox.url, 'POST', '/v2/commands/completion-by-hash', { ...spec, body: { transactionHash: hash } }), 404, 'COMPLETION_NOT_FOUND');
  });
});
