import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/create-ledger-client.js';
import { runTail } from '../../src/cli/tail/run-tail.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { captureIo } from './support/capture-io.js';
import { offsetOfLine } from './support/ledger-truth.js';
import { runInProcess } from './support/run-in-process.js';

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('tokens', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 30, generate: 30, authSecret: 'test-secret' });
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-auth-'));
    const admin = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('participant_admin') });
    await admin.createUser({ user: { id: 'reader', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }] });
    await admin.createUser({ user: { id: 'nobody', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [] });
    await admin.close();
  });
  afterAll(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('re-reads --token-file before every request, so a rotated token keeps the tail alive', async () => {
    const file = join(dir, 'token');
    const first = await sandbox.token('reader', { expiresInSeconds: 2 });
    await writeFile(file, `${first}\n`);
    const io = captureIo();
    const running = runTail({ source: { url: sandbox.url, tokenFile: file }, filter: {}, logLevel: 'warn', longPollMs: 200 }, io);
    await new Promise((r) => setTimeout(r, 300));
    const second = await sandbox.token('reader');
    await writeFile(file, second);
    await new Promise((r) => setTimeout(r, 2_700)); // the first token has expired by now
    const before = sandbox.ledgerEnd();
    await new Promise((r) => setTimeout(r, 400));
    io.signal('SIGTERM');
    expect(await running).toBe(0);
    const offsets = lines(io.out()).map(offsetOfLine);
    expect(offsets.some((o) => o > before)).toBe(true);
    expect(io.err()).not.toContain(first);
    expect(io.err()).not.toContain(second);
  });

  it('a token without the read right exits 3 (permission) and is never printed', async () => {
    const token = await sandbox.token('nobody');
    const result = await runInProcess(['tail', '--url', sandbox.url, '--token', token, '--to', 'end']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/error: \S+: /);
    // what the redacted 403 checked: no --party is every party's updates; the token's user
    expect(result.stderr).toMatch(/^ {2}hint: The participant checks CanReadAsAnyParty for this request; the token is for the user 'nobody'/m);
    expect(result.stderr).not.toContain(token);
    const viaEnv = await runInProcess(['tail', '--url', sandbox.url, '--to', 'end', '--log-level', 'debug'], { env: { LEDGER_RX_TOKEN: await sandbox.token('reader') } });
    expect(viaEnv.code).toBe(0);
    expect(lines(viaEnv.stdout).length).toBeGreaterThan(0);
  });
});
