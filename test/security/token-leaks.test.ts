import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLedgerClient, type LedgerClientOptions } from '../../src/client/index.js';
import { LedgerRxError } from '../../src/errors/index.js';
import { tailUpdates } from '../../src/operators/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { reportFigures, viewFormat } from '../support/ledger-oracle.js';
import { runCliToEnd } from '../support/spawn-cli.js';

/**
 * Tokens never appear in what the library and the CLI print: client errors (message, stack, `cause`
 * chain, every property — what a logger would print with `util.inspect`) for every kind of failure, and
 * the CLI's stderr/stdout with `--token`, `--token-file` and `LEDGER_RX_TOKEN`, at debug log level.
 */

const secret = 'token-leak-secret';
const pgUrl = inject('pgUrl');
let sandbox: Sandbox;
let proxy: FaultProxy;
let garbage: Server;
let garbageUrl: string;
let closedUrl: string;
let dir: string;
let checked = 0;

/** The parts of a JWT that must never be printed (each is long enough to be unmistakable). */
function secretsOf(token: string): string[] {
  const parts = token.split('.').filter((p) => p.length >= 16);
  return [token, ...parts.slice(1)]; // the header alone ({"alg":"HS256"...}) is not secret
}

/** Everything an error could reveal: `util.inspect` (own properties, causes), the stack and each message of the cause chain. */
function rendered(error: unknown): string {
  const out: string[] = [inspect(error, { depth: 12 })];
  let current: unknown = error;
  for (let i = 0; i < 12 && current !== undefined && current !== null; i++) {
    if (current instanceof Error) out.push(String(current), String(current.stack));
    try {
      out.push(JSON.stringify(current, Object.getOwnPropertyNames(current as object)));
    } catch {
      // circular: inspect above covered it
    }
    current = (current as { cause?: unknown }).cause;
  }
  return out.join('\n');
}

function expectNoToken(text: string, token: string, what: string): void {
  for (const s of secretsOf(token)) expect(text.includes(s), `${what} must not contain the token`).toBe(false);
  checked++;
}

beforeAll(async () => {
  sandbox = await startSandbox({ authSecret: secret, seed: 20 });
  const admin = createLedgerClient({ baseUrl: sandbox.url, token: await sandbox.token('participant_admin') });
  await admin.createUser({ user: { id: 'nobody', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [] });
  await admin.createUser({ user: { id: 'reader', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }] });
  await admin.close();
  proxy = await startFaultProxy({ target: sandbox.url });
  garbage = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"offset": 1, "synchronizerTimes": [tru');
  });
  await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', () => r()));
  garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
  closedUrl = await new Promise<string>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });
  dir = await mkdtemp(join(tmpdir(), 'ledger-rx-leaks-'));
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  await new Promise<void>((r) => garbage.close(() => r()));
  await rm(dir, { recursive: true, force: true });
  reportFigures('token-leaks', { checks: checked });
});

describe('client errors never contain the token', () => {
  it('the detector sees a token anywhere in an error (message, property, cause)', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZC1zZWdtZW50LWZvci10ZXN0cw.c2lnbmF0dXJlLXNlZ21lbnQtZm9yLXRlc3Rz';
    const signature = token.split('.')[2] as string;
    for (const error of [new Error(`token ${token}`), Object.assign(new Error('x'), { header: `Bearer ${signature}` }), new Error('x', { cause: new Error(signature) })]) {
      expect(() => expectNoToken(rendered(error), token, 'probe')).toThrow();
    }
    checked -= 3;
  });

  /** [failure, base URL, client options beyond the token, the call] */
  const failures = (): [string, () => string, Partial<LedgerClientOptions>, (c: ReturnType<typeof createLedgerClient>) => Promise<unknown>, string][] => [
    ['401 (a token that is not a JWT)', () => sandbox.url, {}, (c) => c.ledgerEnd(), 'bad'],
    ['401 (bad signature)', () => sandbox.url, {}, (c) => c.listPackages(), 'forged'],
    ['403 (no right)', () => sandbox.url, {}, (c) => c.updateVettedPackages({ changes: [] }), 'nobody'],
    ['403 (expired)', () => sandbox.url, {}, (c) => c.getUser('nobody'), 'expired'],
    ['connection refused', () => closedUrl, {}, (c) => c.ledgerEnd(), 'nobody'],
    ['timeout before the headers', () => proxy.url, { timeoutMs: 150 }, (c) => (proxy.schedule([{ kind: 'stall-headers', ms: 600 }]), c.ledgerEnd()), 'nobody'],
    ['body cut', () => proxy.url, {}, (c) => (proxy.schedule([{ kind: 'cut', at: 'random' }]), c.ledgerEnd()), 'nobody'],
    ['503 text', () => proxy.url, {}, (c) => (proxy.schedule([{ kind: 'status', status: 503 }]), c.ledgerEnd()), 'nobody'],
    ['malformed JSON', () => garbageUrl, {}, (c) => c.ledgerEnd(), 'nobody'],
    ['aborted', () => sandbox.url, {}, (c) => c.ledgerEnd({ signal: AbortSignal.abort(new Error('stop')) }), 'nobody'],
    ['updates stream cut mid-body', () => proxy.url, {}, (c) => (proxy.schedule([{ kind: 'cut', at: { fraction: 0.5 } }]), lastValueFrom(c.updates({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: viewFormat({ parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' }) }))), 'reader'],
    [
      'tailUpdates: retries exhausted',
      () => closedUrl,
      {},
      (c) => lastValueFrom(tailUpdates(c, { updateFormat: viewFormat({ parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' }), endInclusive: 5, retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 } })),
      'reader',
    ],
  ];

  it.each(failures().map((f) => [f[0], f] as const))('%s', async (_name, [name, url, options, call, who]) => {
    const token = who === 'bad' ? 'eyJhbGciOiJIUzI1NiJ9.bm90LWEtcmVhbC1wYXlsb2FkLWxlYWstbWFya2Vy.c2lnbmF0dXJlLWxlYWstbWFya2VyLXh5eg' : who === 'forged' ? await sandbox.token('reader', { secret: 'other' }) : who === 'expired' ? await sandbox.token('reader', { expiresInSeconds: -60 }) : await sandbox.token(who);
    for (const provider of [false, true]) {
      const client = createLedgerClient({ baseUrl: url(), ...options, token: provider ? async () => token : token });
      const error = await call(client).then(
        () => undefined,
        (e: unknown) => e,
      );
      await client.close();
      expect(error, name).toBeInstanceOf(LedgerRxError);
      expectNoToken(rendered(error), token, `${name} (${provider ? 'provider' : 'string'})`);
    }
  });

  it('a token with a line break is refused without echoing it', async () => {
    const token = 'header.payload-that-must-stay-secret-1234\nX-Injected: yes';
    let error: unknown;
    try {
      createLedgerClient({ baseUrl: sandbox.url, token });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: 'InvalidArgumentError', field: 'token' });
    expect(rendered(error)).not.toContain('payload-that-must-stay-secret');
    const client = createLedgerClient({ baseUrl: sandbox.url, token: () => token });
    const fromProvider = await client.ledgerEnd().catch((e: unknown) => e);
    await client.close();
    expect(fromProvider).toMatchObject({ name: 'InvalidArgumentError', field: 'token' });
    expect(rendered(fromProvider)).not.toContain('payload-that-must-stay-secret');
    checked += 2;
  });
});

describe('the CLI never prints the token', () => {
  const logLevel = ['--log-level', 'debug'];

  it('tail with --token: permission denied, bad signature, unreachable', async () => {
    const nobody = await sandbox.token('nobody');
    const forged = await sandbox.token('reader', { secret: 'other' });
    const runs: [string, string, string[], number][] = [
      ['403', nobody, ['tail', '--url', sandbox.url, '--token', nobody, '--to', 'end', ...logLevel], 3],
      ['401', forged, ['tail', '--url', sandbox.url, '--token', forged, '--to', 'end', ...logLevel], 3],
      ['unreachable', nobody, ['tail', '--url', closedUrl, '--token', nobody, '--max-retries', '1', ...logLevel], 4],
      ['vetting list 401', forged, ['vetting', 'list', '--url', sandbox.url, '--token', forged], 3],
      ['users revoke 403', nobody, ['users', 'revoke', 'reader', '--read-as-any-party', '--url', sandbox.url, '--token', nobody], 3],
    ];
    const results = await Promise.all(runs.map(([, , args]) => runCliToEnd(args)));
    results.forEach((r, i) => {
      const [name, token, , code] = runs[i] as [string, string, string[], number];
      expect(r.code, `${name}: ${r.stderr}`).toBe(code);
      expect(r.stderr.length, name).toBeGreaterThan(0);
      expectNoToken(r.stderr, token, `${name} stderr`);
      expectNoToken(r.stdout, token, `${name} stdout`);
    });
  }, 30_000);

  it('submit and ingest: a token without the right exits 3 and is never printed', async () => {
    const nobody = await sandbox.token('nobody');
    const alice = sandbox.partyId('Alice');
    const file = join(dir, 'create.json');
    await writeFile(
      file,
      JSON.stringify({
        actAs: [alice],
        commandId: 'leak-check-1',
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1.0', observers: [] } } }],
      }),
    );
    const runs: [string, string[]][] = [['submit 403', ['submit', file, '--url', sandbox.url, '--token', nobody]]];
    if (pgUrl) runs.push(['ingest 403', ['ingest', '--pg', pgUrl, '--schema', `leak_${process.pid}`, '--url', sandbox.url, '--token', nobody, '--to', 'end', ...logLevel]]);
    const results = await Promise.all(runs.map(([, args]) => runCliToEnd(args)));
    results.forEach((r, i) => {
      const [name] = runs[i] as [string, string[]];
      expect(r.code, `${name}: ${r.stderr}`).toBe(3);
      expect(r.stderr, name).toMatch(/PERMISSION_DENIED|NA|403/);
      expectNoToken(r.stderr, nobody, `${name} stderr`);
      expectNoToken(r.stdout, nobody, `${name} stdout`);
    });
    checked += runs.length;
  }, 30_000);

  it('tail with --token-file and LEDGER_RX_TOKEN, at debug level, successful and failing', async () => {
    const reader = await sandbox.token('reader');
    const nobody = await sandbox.token('nobody');
    const file = join(dir, 'token');
    await writeFile(file, `${reader}\n`);
    const bad = join(dir, 'bad-token');
    await writeFile(bad, nobody);
    const [ok, denied, env] = await Promise.all([
      runCliToEnd(['tail', '--url', sandbox.url, '--token-file', file, '--to', 'end', ...logLevel]),
      runCliToEnd(['tail', '--url', sandbox.url, '--token-file', bad, '--to', 'end', ...logLevel]),
      runCliToEnd(['tail', '--url', sandbox.url, '--to', 'end', ...logLevel], { LEDGER_RX_TOKEN: nobody }),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(0);
    expect(ok.stderr).toContain('"level":20'); // debug logs were written, and still no token
    expectNoToken(ok.stderr, reader, 'token-file stderr');
    expectNoToken(ok.stdout, reader, 'token-file stdout');
    expect(denied.code, denied.stderr).toBe(3);
    expectNoToken(denied.stderr, nobody, 'token-file 403 stderr');
    expect(env.code, env.stderr).toBe(3);
    expectNoToken(env.stderr, nobody, 'LEDGER_RX_TOKEN stderr');
  }, 30_000);
});
