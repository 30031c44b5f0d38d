import { once } from 'node:events';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstValueFrom, toArray } from 'rxjs';
import { createLedgerClient, updateFormat, UnsupportedByParticipantVersionError, type LedgerClient } from '../../src/index.js';
import { startSandbox, type Sandbox, type SandboxApiVersion } from '../../src/sandbox/index.js';
import { startHeaderRecorder, type HeaderRecorder } from '../support/header-recorder.js';

/**
 * The client reads the participant's version once and picks the endpoints that exist there
 * (docs/participant-versions.md): an operation the version lacks rejects with
 * `UNSUPPORTED_BY_PARTICIPANT_VERSION` after `GET /v2/version` only; vetting changes go to the route the
 * version has; the by-hash reads work on 3.6. Checked against sandboxes serving each line, through a
 * recorder that sees every request.
 */

interface Setup {
  sandbox: Sandbox;
  recorder: HeaderRecorder;
  client: LedgerClient;
}

const setups = new Map<SandboxApiVersion, Setup>();
const versions: readonly SandboxApiVersion[] = ['3.4', '3.5', '3.6'];

beforeAll(async () => {
  for (const apiVersion of versions) {
    const sandbox = await startSandbox({ apiVersion, seed: 10 });
    const recorder = await startHeaderRecorder(sandbox.url);
    setups.set(apiVersion, { sandbox, recorder, client: createLedgerClient({ baseUrl: recorder.url }) });
  }
});
afterAll(async () => {
  for (const { sandbox, recorder, client } of setups.values()) {
    await client.close();
    await recorder.close();
    await sandbox.close();
  }
});

const paths = (s: Setup) => s.recorder.requests.map((r) => `${r.method} ${r.url.split('?')[0] ?? ''}`);
const setup = (v: SandboxApiVersion) => setups.get(v) as Setup;

describe('the participant version', () => {
  it('is read once per client and tells which operations exist', async () => {
    const s = setup('3.5');
    const before = s.recorder.requests.length;
    const info = await s.client.participantVersion();
    expect(info.version).toBe('3.5.10-SNAPSHOT');
    expect([info.supports('updatesPage'), info.supports('commandCompletions'), info.supports('updateByHash'), info.supports('vettingUpdateAlias')]).toEqual([true, true, false, true]);
    await s.client.participantVersion();
    expect(paths(s).slice(before)).toEqual(['GET /v2/version']);
  });

  it('is read again after the connection to the participant was lost (here: a restart on another version)', async () => {
    const first = await startSandbox({ apiVersion: '3.5' });
    const port = first.port;
    const agent = new Agent();
    const client = createLedgerClient({ baseUrl: first.url, dispatcher: agent });
    let second: Sandbox | undefined;
    try {
      expect((await client.participantVersion()).version).toBe('3.5.10-SNAPSHOT');
      const lost = once(agent, 'disconnect');
      await first.close(); // the participant goes away: the client's keep-alive connection is closed by the other side
      await lost;
      second = await startSandbox({ apiVersion: '3.6', port });
      expect((await client.participantVersion()).version).toBe('3.6.0-SNAPSHOT');
      expect((await client.participantVersion()).supports('updateByHash')).toBe(true);
    } finally {
      await client.close();
      await agent.close();
      await second?.close();
    }
  });

  it('can be given instead of read (participantVersion option); a malformed one is refused', async () => {
    const s = setup('3.4');
    const client = createLedgerClient({ baseUrl: s.recorder.url, participantVersion: '3.4.11' });
    const before = s.recorder.requests.length;
    await expect(client.updatesPage({ updateFormat: updateFormat().transactions((t) => t.parties(s.sandbox.partyId('Alice'))).build() })).rejects.toMatchObject({
      code: 'UNSUPPORTED_BY_PARTICIPANT_VERSION',
      participantVersion: '3.4.11',
    });
    expect(paths(s).slice(before)).toEqual([]);
    await client.close();
    expect(() => createLedgerClient({ baseUrl: s.recorder.url, participantVersion: 'latest' })).toThrow(/participantVersion/);
  });
});

describe('operations a version lacks fail before their request, with the version and the alternative', () => {
  it('3.4: updatesPage, activeContractsPage and completions (command-completions) reject; completions on its old endpoint works', async () => {
    const s = setup('3.4');
    const alice = s.sandbox.partyId('Alice');
    const format = updateFormat().transactions((t) => t.parties(alice)).build();
    const before = s.recorder.requests.length;
    const page = await s.client.updatesPage({ updateFormat: format }).catch((e: unknown) => e);
    expect(page).toBeInstanceOf(UnsupportedByParticipantVersionError);
    expect(page).toMatchObject({ code: 'UNSUPPORTED_BY_PARTICIPANT_VERSION', retryable: false, operation: 'updatesPage', participantVersion: '3.4.12-SNAPSHOT' });
    expect((page as Error).message).toContain('version 3.4.12-SNAPSHOT');
    expect((page as Error).message).toContain('3.5.1 and later');
    expect((page as Error).message).toContain('updates()');
    await expect(s.client.activeContractsPage({ eventFormat: { filtersByParty: { [alice]: {} } } } as never)).rejects.toMatchObject({ operation: 'activeContractsPage' });
    await expect(firstValueFrom(s.client.completions({ parties: [alice] }))).rejects.toMatchObject({ code: 'UNSUPPORTED_BY_PARTICIPANT_VERSION', operation: 'completions' });
    expect(paths(s).slice(before).filter((p) => p !== 'GET /v2/version')).toEqual([]);
    const old = await firstValueFrom(s.client.completions({ userId: 'nobody', parties: [alice], beginExclusive: 0 }, { endpoint: 'completions', transport: 'list', limit: 1, streamIdleTimeoutMs: 10 }).pipe(toArray()));
    expect(Array.isArray(old)).toBe(true);
    expect(paths(s).at(-1)).toBe('POST /v2/commands/completions');
  });

  it('3.5: the page reads work; the by-hash reads reject', async () => {
    const s = setup('3.5');
    const alice = s.sandbox.partyId('Alice');
    const page = await s.client.updatesPage({ updateFormat: updateFormat().transactions((t) => t.parties(alice)).build(), maxPageSize: 2 });
    expect(page.updates.length).toBeGreaterThan(0);
    const before = s.recorder.requests.length;
    await expect(s.client.updateByHash({ transactionHash: 'EiA=', updateFormat: updateFormat().transactions((t) => t.parties(alice)).build() })).rejects.toMatchObject({
      code: 'UNSUPPORTED_BY_PARTICIPANT_VERSION',
      operation: 'updateByHash',
    });
    await expect(s.client.completionByHash({ transactionHash: 'EiA=' })).rejects.toMatchObject({ operation: 'completionByHash' });
    expect(paths(s).slice(before)).toEqual([]);
  });

  it('bad input is refused before the version is read', async () => {
    const sandbox = await startSandbox({ apiVersion: '3.6' });
    const recorder = await startHeaderRecorder(sandbox.url);
    const client = createLedgerClient({ baseUrl: recorder.url });
    try {
      await expect(client.updateByHash({ transactionHash: 'not base64!', updateFormat: {} } as never)).rejects.toMatchObject({ code: 'INVALID_CLIENT_ARGUMENT' });
      await expect(client.completionByHash({ transactionHash: '' })).rejects.toMatchObject({ code: 'INVALID_CLIENT_ARGUMENT' });
      expect(recorder.requests).toEqual([]);
    } finally {
      await client.close();
      await recorder.close();
      await sandbox.close();
    }
  });
});

describe('vetting changes go to the route the version has', () => {
  const vet = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'ledger-rx-extras' }] } } } }], dryRun: true };

  it.each([
    ['3.4', 'POST /v2/package-vetting/update'],
    ['3.5', 'POST /v2/package-vetting/update'],
    ['3.6', 'POST /v2/package-vetting/update'],
  ] as const)('%s: by default %s', async (version, route) => {
    const s = setup(version);
    const r = await s.client.updateVettedPackages(vet as never);
    expect(r.newVettedPackages).toBeTruthy();
    expect(paths(s).at(-1)).toBe(route);
  });

  it('a participant before 3.4.12 gets the deprecated alias; 3.6 refuses the alias before sending', async () => {
    const old = setup('3.4');
    const client = createLedgerClient({ baseUrl: old.recorder.url, participantVersion: '3.4.11' });
    await client.updateVettedPackages(vet as never);
    expect(paths(old).at(-1)).toBe('POST /v2/package-vetting');
    await client.close();
    const s = setup('3.6');
    const before = s.recorder.requests.length;
    const refused = await s.client.updateVettedPackages(vet as never, { endpoint: 'deprecated' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'UNSUPPORTED_BY_PARTICIPANT_VERSION', operation: 'updateVettedPackages', endpoint: 'POST /v2/package-vetting' });
    expect((refused as Error).message).toContain("endpoint: 'update'");
    expect(paths(s).slice(before).filter((p) => p !== 'GET /v2/version')).toEqual([]);
  });
});

describe('the by-hash reads on 3.6', () => {
  it('find the update and the completion of an externally signed submission', async () => {
    const s = setup('3.6');
    const alice = s.sandbox.partyId('Alice');
    const result = await s.sandbox.submit(
      { commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }], commandId: 'by-hash', actAs: [alice], userId: 'app' },
      { externallySigned: true },
    );
    const hash = result.transactionHash as string;
    const update = await s.client.updateByHash({ transactionHash: hash, updateFormat: updateFormat().transactions((t) => t.parties(alice)).build() });
    expect(update.update).toMatchObject({ Transaction: { value: { updateId: result.updateId, offset: result.offset, transactionHash: hash } } });
    const completion = await s.client.completionByHash({ transactionHash: hash });
    expect(completion.acceptedCompletion).toMatchObject({ commandId: 'by-hash', offset: result.offset, transactionHash: hash });
    expect(completion.lastRejectedCompletions).toEqual([]);
    await expect(s.client.completionByHash({ transactionHash: Buffer.alloc(34, 1).toString('base64') })).rejects.toMatchObject({ name: 'LedgerApiError', code: 'COMPLETION_NOT_FOUND', status: 404 });
  });
});
