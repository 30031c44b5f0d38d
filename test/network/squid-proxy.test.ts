import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findSquid, startSquid, type SquidServer } from '../../scripts/squid-server.js';
import { createLedgerClient, updateFormat, updateOffset, type LedgerClient, type LedgerClientOptions } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

import { runCliToEnd } from '../support/spawn-cli.js';

/**
 * The participant reached through squid as an HTTP forward proxy (docs/network-paths.md): both transports
 * tunnel with CONNECT, taken from the environment (`HTTP_PROXY`) or from `proxy: { url }`; `NO_PROXY`
 * bypasses it (squid's access log shows which path each client took); a squid that refuses CONNECT to the
 * participant's port makes both transports fail with `TransportError` `PROXY_REFUSED`, never a hang.
 */

const squid = findSquid();
if (!squid && process.env['CI']) throw new Error('squid (Debian package squid) is required under CI but is not installed');
if (!squid) console.warn('skipping the squid proxy tests: squid is not installed (apt-get install squid)');

const proxyVariables = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'] as const;

/** Creates a client with `env` as the only proxy variables of the environment (restored at once: they are read at creation). */
function clientWithEnv(env: Partial<Record<(typeof proxyVariables)[number], string>>, options: LedgerClientOptions): LedgerClient {
  const saved = proxyVariables.map((name) => [name, process.env[name]] as const);
  for (const name of proxyVariables) delete process.env[name];
  Object.assign(process.env, env);
  try {
    return createLedgerClient(options);
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe.skipIf(!squid)('a participant behind squid as a forward proxy (CONNECT tunnels)', () => {
  let sandbox: Sandbox;
  let allowing: SquidServer;
  let refusing: SquidServer;
  let sandboxPort: number;
  const clients: LedgerClient[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 25 });
    sandboxPort = Number(new URL(sandbox.url).port);
    allowing = await startSquid(() => [`acl participant port ${sandboxPort}`, 'http_access allow CONNECT participant', 'http_access deny all'].join('\n'));
    refusing = await startSquid(() => [`acl participant port ${sandboxPort}`, 'http_access deny CONNECT participant', 'http_access deny all'].join('\n'));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await allowing?.stop();
    await refusing?.stop();
    await sandbox?.close();
  });

  // squid writes a tunnel's access-log line when the tunnel closes: close the client, then wait for the line
  const tunnels = (proxy: SquidServer): number => proxy.accessLog().filter((line) => line.includes(`CONNECT 127.0.0.1:${sandboxPort}`)).length;
  const logged = async (proxy: SquidServer, count: number): Promise<void> => {
    while (tunnels(proxy) < count) await new Promise((resolve) => setTimeout(resolve, 20)); // until squid has written the line
  };
  const request = () => {
    const end = sandbox.ledgerEnd();
    return { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice'))).build() };
  };
  const expectLedger = (elements: Parameters<typeof updateOffset>[0][], expected: Parameters<typeof updateOffset>[0][]) => {
    const offsets = elements.map((e) => updateOffset(e) ?? -1);
    expect(offsets.length).toBeGreaterThan(0);
    offsets.slice(1).forEach((offset, i) => expect(offset).toBeGreaterThan(offsets[i] ?? Infinity));
    expect(elements).toEqual(expected);
  };

  it('reads over HTTP and over WebSocket through the proxy of HTTP_PROXY, the same as directly', async () => {
    const direct = createLedgerClient({ baseUrl: sandbox.url, proxy: false });
    clients.push(direct);
    const expected = await lastValueFrom(direct.updates(request()).pipe(toArray()));
    expect(expected.length).toBeGreaterThan(1);

    // the WebSocket first: the client sends nothing else (its version is given), so it is exactly one tunnel
    const before = tunnels(allowing);
    const overWebSocket = clientWithEnv({ HTTP_PROXY: allowing.url }, { baseUrl: sandbox.url, participantVersion: '3.5.0' });
    expectLedger(await lastValueFrom(overWebSocket.updates(request(), { transport: 'websocket' }).pipe(toArray())), expected);
    await overWebSocket.close();
    await logged(allowing, before + 1);

    const overHttp = clientWithEnv({ HTTP_PROXY: allowing.url }, { baseUrl: sandbox.url });
    expect((await overHttp.ledgerEnd()).offset).toBe(sandbox.ledgerEnd());
    expectLedger(await lastValueFrom(overHttp.updates(request()).pipe(toArray())), expected);
    await overHttp.close();
    await logged(allowing, before + 2);
  });

  it('takes the proxy from the option, lower-case variables first, and NO_PROXY=127.0.0.1 bypasses it', async () => {
    let before = tunnels(allowing);
    const byOption = createLedgerClient({ baseUrl: sandbox.url, proxy: { url: allowing.url }, participantVersion: '3.5.0' });
    expect((await lastValueFrom(byOption.updates(request(), { transport: 'websocket' }).pipe(toArray()))).length).toBeGreaterThan(0);
    await byOption.close();
    await logged(allowing, before + 1);

    // http_proxy wins over HTTP_PROXY (which points at the refusing squid)
    before = tunnels(allowing);
    const lower = clientWithEnv({ http_proxy: allowing.url, HTTP_PROXY: refusing.url }, { baseUrl: sandbox.url });
    expect((await lower.ledgerEnd()).offset).toBe(sandbox.ledgerEnd());
    await lower.close();
    await logged(allowing, before + 1);

    before = tunnels(allowing);
    const refusedBefore = refusing.accessLog().length;
    const bypassing = [
      clientWithEnv({ HTTP_PROXY: allowing.url, NO_PROXY: '127.0.0.1' }, { baseUrl: sandbox.url }),
      clientWithEnv({ HTTP_PROXY: allowing.url, no_proxy: `127.0.0.1:${sandboxPort}`, NO_PROXY: 'elsewhere' }, { baseUrl: sandbox.url }),
      createLedgerClient({ baseUrl: sandbox.url, proxy: { url: refusing.url, noProxy: `localhost, 127.0.0.1:${sandboxPort}` } }),
      clientWithEnv({ HTTP_PROXY: refusing.url }, { baseUrl: sandbox.url, proxy: false }),
    ];
    for (const client of bypassing) {
      expect((await client.ledgerEnd()).offset).toBe(sandbox.ledgerEnd());
      expect((await lastValueFrom(client.updates(request(), { transport: 'websocket' }).pipe(toArray()))).length).toBeGreaterThan(0);
      await client.close();
    }
    // a last tunnel, opened after the others were closed: once squid has logged it, it would have logged theirs
    const sentinel = createLedgerClient({ baseUrl: sandbox.url, proxy: { url: allowing.url } });
    await sentinel.ledgerEnd();
    await sentinel.close();
    await logged(allowing, before + 1);
    expect(tunnels(allowing)).toBe(before + 1);
    expect(refusing.accessLog().length).toBe(refusedBefore);
  });

  it('a proxy that refuses CONNECT fails both transports with TransportError PROXY_REFUSED naming it', async () => {
    const client = clientWithEnv({ HTTP_PROXY: refusing.url }, { baseUrl: sandbox.url });
    clients.push(client);
    const refused = {
      name: 'TransportError',
      code: 'PROXY_REFUSED',
      retryable: false,
      message: expect.stringMatching(new RegExp(`proxy ${refusing.url.replace(/[.]/g, '\\.')} \\(HTTP_PROXY\\) refused CONNECT 127\\.0\\.0\\.1:${sandboxPort}: HTTP/1\\.1 403 Forbidden`)),
    };
    await expect(client.ledgerEnd()).rejects.toMatchObject(refused);
    await expect(lastValueFrom(client.updates(request()))).rejects.toMatchObject(refused);
    await expect(lastValueFrom(client.updates(request(), { transport: 'websocket' }))).rejects.toMatchObject({ ...refused, request: 'GET /v2/updates (WebSocket)' });
    // squid denied the three tunnels (its lines may be written just after the answers: wait for them)
    const denied = () => refusing.accessLog().filter((line) => line.includes('TCP_DENIED/403') && line.includes(`CONNECT 127.0.0.1:${sandboxPort}`)).length;
    while (denied() < 3) await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('the CLI honours HTTP_PROXY and NO_PROXY on both transports', async () => {
    const end = String(sandbox.ledgerEnd());
    const alice = sandbox.partyId('Alice');
    for (const transport of ['list', 'websocket']) {
      const before = tunnels(allowing);
      const ok = await runCliToEnd(['tail', '--url', sandbox.url, '--to', end, '--transport', transport, '--party', alice], { HTTP_PROXY: allowing.url, NO_PROXY: '', no_proxy: '' });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout.trim().split('\n').filter((l) => l !== '').length).toBeGreaterThan(0);
      await logged(allowing, before + 1); // the CLI has exited: its tunnels are closed
      const refused = await runCliToEnd(['tail', '--url', sandbox.url, '--to', end, '--transport', transport, '--party', alice], { HTTP_PROXY: refusing.url, NO_PROXY: '', no_proxy: '' });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/PROXY_REFUSED|refused CONNECT/);
    }
  });
});
