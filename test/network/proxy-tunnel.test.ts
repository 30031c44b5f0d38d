import { createServer, type Server, type Socket } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { bypassesProxy, resolveProxy } from '../../src/client/http/resolve-proxy.js';
import { createLedgerClient, updateFormat } from '../../src/index.js';

/**
 * The proxy choice (undici's EnvHttpProxyAgent rules, docs/network-paths.md) and the CONNECT tunnel's
 * failures, against a scripted proxy in process: what it was sent (Proxy-Authorization) and how each of its
 * answers reaches the caller. The real-proxy path is test/network/squid-proxy.test.ts.
 */

describe('resolveProxy', () => {
  const http = new URL('http://ledger.example.com:7575');
  const https = new URL('https://ledger.example.com');

  it('reads the environment as undici does: lower case first, HTTPS_PROXY for https falling back to HTTP_PROXY', () => {
    expect(resolveProxy(http, undefined, { HTTP_PROXY: 'http://a:1', http_proxy: 'http://b:2' })?.display).toBe('http://b:2');
    expect(resolveProxy(http, undefined, { HTTPS_PROXY: 'http://a:1' })).toBeUndefined();
    expect(resolveProxy(https, undefined, { HTTPS_PROXY: 'http://a:1', HTTP_PROXY: 'http://b:2' })).toMatchObject({ display: 'http://a:1', source: 'HTTPS_PROXY' });
    expect(resolveProxy(https, undefined, { HTTP_PROXY: 'http://b:2' })).toMatchObject({ display: 'http://b:2', source: 'HTTP_PROXY' });
    expect(resolveProxy(https, undefined, { https_proxy: '', HTTP_PROXY: 'http://b:2' })?.source).toBe('HTTP_PROXY');
    expect(resolveProxy(http, undefined, { http_proxy: '', HTTP_PROXY: 'http://b:2' })).toBeUndefined();
    expect(resolveProxy(http, undefined, { HTTP_PROXY: 'proxy.internal:3128' })).toMatchObject({ display: 'http://proxy.internal:3128', port: 3128 });
    expect(resolveProxy(http, undefined, { HTTP_PROXY: 'http://proxy' })?.port).toBe(80);
    expect(resolveProxy(http, false, { HTTP_PROXY: 'http://a:1' })).toBeUndefined();
    expect(resolveProxy(http, { url: 'http://c:3' }, { NO_PROXY: 'ledger.example.com' })?.display).toBe('http://c:3');
    expect(resolveProxy(http, { url: 'http://c:3', noProxy: 'example.com' }, {})).toBeUndefined();
  });

  it('applies NO_PROXY: hosts and subdomains, ports, leading dots and stars, * alone', () => {
    const cases: [string, boolean][] = [
      ['', false],
      ['*', true],
      ['example.com', true],
      ['.example.com', true],
      ['*.example.com', true],
      ['ledger.example.com:7575', true],
      ['ledger.example.com:80', false],
      ['LEDGER.EXAMPLE.COM', true],
      ['other.com, example.org', false],
      ['other.com example.com', true],
      ['xample.com', false],
      ['ledger.example', false],
    ];
    for (const [noProxy, bypass] of cases) expect([noProxy, bypassesProxy(http, noProxy)]).toEqual([noProxy, bypass]);
    expect(bypassesProxy(https, 'example.com:443')).toBe(true);
    expect(bypassesProxy(new URL('http://127.0.0.1:7575'), '127.0.0.1')).toBe(true);
    expect(bypassesProxy(new URL('http://[::1]:7575'), '[::1]')).toBe(true);
  });

  it('refuses a proxy that is no http(s) URL, naming the variable without echoing its value', () => {
    expect(() => resolveProxy(http, undefined, { HTTP_PROXY: 'socks5://u:secret@h:1' })).toThrow(/HTTP_PROXY.*socks5:/);
    expect(() => resolveProxy(http, undefined, { HTTP_PROXY: 'http://u:secret@[bad' })).toThrow(/HTTP_PROXY/);
    expect(() => resolveProxy(http, undefined, { HTTP_PROXY: 'http://u:secret@[bad' })).not.toThrow(/secret/);
    expect(() => createLedgerClient({ baseUrl: http, proxy: { url: 'ftp://x' } })).toThrow(/proxy\.url/);
  });
});

/** A proxy in process that records each CONNECT request's head and answers it with `answer` (or nothing). */
async function scriptedProxy(answer: string | undefined): Promise<{ url: string; heads: string[]; server: Server }> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      heads.push(head);
      if (answer === undefined) return; // silent
      if (answer === '') socket.destroy();
      else socket.end(answer);
    });
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, heads, server };
}

describe('the CONNECT tunnel against a scripted proxy', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.close();
      server.emit('close');
    }
  });
  const bounded = { beginExclusive: 0, endInclusive: 1, updateFormat: updateFormat().transactions((t) => t.parties('Alice::1220')).build() };

  it('sends the URL credentials as Proxy-Authorization, and a 407 is PROXY_REFUSED without them in the message', async () => {
    const proxy = await scriptedProxy('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="x"\r\n\r\n');
    servers.push(proxy.server);
    const withCredentials = proxy.url.replace('http://', 'http://alice:s%40cret@');
    const client = createLedgerClient({ baseUrl: 'http://ledger.invalid:7575', proxy: { url: withCredentials }, participantVersion: '3.5.0' });
    try {
      const refused = { name: 'TransportError', code: 'PROXY_REFUSED', retryable: false, message: expect.stringContaining('407 Proxy Authentication Required (the proxy refused the credentials)') };
      const unary = await client.ledgerEnd().catch((e: unknown) => e as Error);
      expect(unary).toMatchObject(refused);
      const stream = await lastValueFrom(client.updates(bounded, { transport: 'websocket' })).catch((e: unknown) => e as Error);
      expect(stream).toMatchObject({ ...refused, request: 'GET /v2/updates (WebSocket)' });
      for (const error of [unary, stream]) {
        expect(String((error as Error).message)).toContain(`proxy ${proxy.url} (proxy.url)`);
        expect(JSON.stringify(error) + String((error as Error).stack)).not.toMatch(/alice|s@cret|s%40cret|YWxpY2U6c0BjcmV0/);
      }
      expect(proxy.heads).toHaveLength(2);
      for (const head of proxy.heads) {
        expect(head.startsWith('CONNECT ledger.invalid:7575 HTTP/1.1\r\n')).toBe(true);
        expect(head).toContain(`\r\nProxy-Authorization: Basic ${Buffer.from('alice:s@cret').toString('base64')}\r\n`);
      }
    } finally {
      await client.close();
    }
  });

  it('a 407 without credentials says so; a 502 is retryable; a proxy that closes is CONNECTION_RESET; one that is silent times out', async () => {
    const auth = await scriptedProxy('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const gateway = await scriptedProxy('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const closing = await scriptedProxy('');
    const silent = await scriptedProxy(undefined);
    servers.push(auth.server, gateway.server, closing.server, silent.server);
    const cases = [
      { proxy: auth, expected: { code: 'PROXY_REFUSED', retryable: false, message: expect.stringContaining('the proxy wants credentials') } },
      { proxy: gateway, expected: { code: 'PROXY_REFUSED', retryable: true, message: expect.stringContaining('502 Bad Gateway') } },
      { proxy: closing, expected: { code: 'CONNECTION_RESET', message: expect.stringContaining('closed the connection before answering CONNECT') } },
      { proxy: silent, expected: { code: 'REQUEST_TIMEOUT', message: expect.stringContaining('no answer to CONNECT') } },
    ];
    for (const { proxy, expected } of cases) {
      const client = createLedgerClient({ baseUrl: 'http://ledger.invalid:7575', proxy: { url: proxy.url }, participantVersion: '3.5.0', timeoutMs: 500 });
      try {
        // a silent proxy: the unary call's own deadline (the same timeoutMs) may fire first, also REQUEST_TIMEOUT
        await expect(client.ledgerEnd()).rejects.toMatchObject({ name: 'TransportError', ...expected, ...(proxy === silent ? { message: expect.any(String) } : {}) });
        await expect(lastValueFrom(client.updates(bounded))).rejects.toMatchObject({ name: 'TransportError', ...expected });
        await expect(lastValueFrom(client.updates(bounded, { transport: 'websocket' }))).rejects.toMatchObject({ name: 'TransportError', ...expected });
      } finally {
        await client.close();
      }
    }
  });
});
