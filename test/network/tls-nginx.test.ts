import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, startNginx, type NginxServer } from '../../scripts/nginx-server.js';
import { findSquid, startSquid } from '../../scripts/squid-server.js';
import { createLedgerClient, updateFormat } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../cli/support/run-in-process.js';

/**
 * An `https://` participant behind nginx as a TLS reverse proxy (docs/network-paths.md): a private CA, a
 * server certificate for localhost and a client certificate that nginx requires, all made here with the
 * openssl CLI. The client reads over HTTP and over WebSocket (the upgrade proxied) with `tls.caFile`,
 * `certFile` and `keyFile`; without the client certificate nginx refuses, without the CA the handshake
 * fails.
 */

const nginx = findNginx();
if (!nginx && process.env['CI']) throw new Error('nginx (Debian package nginx or nginx-light) is required under CI but is not installed');

function openssl(args: readonly string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'ignore' });
}

/** A CA, a server certificate (localhost, 127.0.0.1) and a client certificate, all signed by the CA. */
function makeCertificates(dir: string): void {
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=ledger-rx test CA'], dir);
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext'], dir);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=ledger-rx client'], dir);
  openssl(['x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '2'], dir);
}

describe.skipIf(!nginx)('an https participant behind nginx (TLS, client certificates, WebSocket proxied)', () => {
  let dir: string;
  let sandbox: Sandbox;
  let proxy: NginxServer;
  let baseUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-rx-tls-'));
    makeCertificates(dir);
    sandbox = await startSandbox({ seed: 20 });
    const upstream = new URL(sandbox.url).host;
    proxy = await startNginx(
      (port) => `
  server {
    listen 127.0.0.1:${port} ssl;
    server_name localhost;
    ssl_certificate ${join(dir, 'server.pem')};
    ssl_certificate_key ${join(dir, 'server.key')};
    ssl_client_certificate ${join(dir, 'ca.pem')};
    ssl_verify_client on;
    location / {
      proxy_pass http://${upstream};
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $http_connection;
      proxy_buffering off;
      proxy_read_timeout 300s;
    }
  }`,
    );
    baseUrl = `https://localhost:${proxy.port}`;
  });
  afterAll(async () => {
    await proxy?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const tls = () => ({ caFile: join(dir, 'ca.pem'), certFile: join(dir, 'client.pem'), keyFile: join(dir, 'client.key') });

  it('reads over HTTP and over WebSocket with the private CA and the client certificate', async () => {
    const client = createLedgerClient({ baseUrl, tls: tls() });
    try {
      const end = (await client.ledgerEnd()).offset;
      expect(end).toBe(sandbox.ledgerEnd());
      const alice = sandbox.partyId('Alice');
      const request = { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat().transactions((t) => t.parties(alice)).build() };
      const listed = await lastValueFrom(client.updates(request).pipe(toArray()));
      const streamed = await lastValueFrom(client.updates(request, { transport: 'websocket' }).pipe(toArray()));
      expect(listed.length).toBeGreaterThan(0);
      expect(streamed).toEqual(listed);
    } finally {
      await client.close();
    }
  });

  it('without the client certificate nginx refuses the request; without the CA the handshake fails', async () => {
    const noCert = createLedgerClient({ baseUrl, tls: { caFile: join(dir, 'ca.pem') } });
    await expect(noCert.ledgerEnd()).rejects.toMatchObject({ status: 400 });
    await noCert.close();
    const noCa = createLedgerClient({ baseUrl, tls: { certFile: join(dir, 'client.pem'), keyFile: join(dir, 'client.key') } });
    await expect(noCa.ledgerEnd()).rejects.toMatchObject({ name: 'TransportError', code: 'CONNECTION_FAILED', message: expect.stringContaining('UNABLE_TO_VERIFY_LEAF_SIGNATURE') });
    const alice = sandbox.partyId('Alice');
    const stream = noCa.updates({ beginExclusive: 0, endInclusive: 1, updateFormat: updateFormat().transactions((t) => t.parties(alice)).build() }, { transport: 'websocket' });
    await expect(lastValueFrom(stream)).rejects.toMatchObject({ name: 'TransportError', code: 'CONNECTION_FAILED' });
    await noCa.close();
  });

  it('the CLI reads through it with --ca-file, --cert and --key (WebSocket), and refuses --cert without --key', async () => {
    const files = ['--ca-file', join(dir, 'ca.pem'), '--cert', join(dir, 'client.pem'), '--key', join(dir, 'client.key')];
    const end = String(sandbox.ledgerEnd());
    const ok = await runInProcess(['tail', '--url', baseUrl, ...files, '--to', end, '--transport', 'websocket', '--party', sandbox.partyId('Alice')]);
    expect(ok.code, ok.stderr).toBe(0);
    const lines = ok.stdout.trim().split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map((l) => (JSON.parse(l) as { offset?: number }).offset ?? 0).every((o) => o <= Number(end))).toBe(true);
    const bad = await runInProcess(['tail', '--url', baseUrl, '--cert', join(dir, 'client.pem'), '--to', end, '--transport', 'list', '--party', sandbox.partyId('Alice')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--key|keyFile/);
  });

  it.skipIf(!findSquid())('reads through squid (HTTPS_PROXY): TLS with the CA and client certificate inside the CONNECT tunnel', async () => {
    const squid = await startSquid(() => [`acl participant port ${proxy.port}`, 'http_access allow CONNECT participant', 'http_access deny all'].join('\n'));
    const saved = process.env['HTTPS_PROXY'];
    process.env['HTTPS_PROXY'] = squid.url;
    let client;
    try {
      client = createLedgerClient({ baseUrl, tls: tls(), participantVersion: '3.5.0' });
    } finally {
      if (saved === undefined) delete process.env['HTTPS_PROXY'];
      else process.env['HTTPS_PROXY'] = saved;
    }
    try {
      const end = (await client.ledgerEnd()).offset;
      expect(end).toBe(sandbox.ledgerEnd());
      const request = { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice'))).build() };
      const listed = await lastValueFrom(client.updates(request).pipe(toArray()));
      const streamed = await lastValueFrom(client.updates(request, { transport: 'websocket' }).pipe(toArray()));
      expect(listed.length).toBeGreaterThan(0);
      expect(streamed).toEqual(listed);
      await client.close();
      // both transports went through squid: its log has a tunnel per connection once they are closed
      while (squid.accessLog().filter((line) => line.includes(`CONNECT localhost:${proxy.port}`)).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      // without the CA, the TLS handshake inside the tunnel fails like a direct one
      const noCa = createLedgerClient({ baseUrl, proxy: { url: squid.url }, tls: { certFile: join(dir, 'client.pem'), keyFile: join(dir, 'client.key') } });
      await expect(noCa.ledgerEnd()).rejects.toMatchObject({ name: 'TransportError', code: 'CONNECTION_FAILED', message: expect.stringContaining('UNABLE_TO_VERIFY_LEAF_SIGNATURE') });
      await expect(lastValueFrom(noCa.updates(request, { transport: 'websocket' }))).rejects.toMatchObject({ name: 'TransportError', code: 'CONNECTION_FAILED' });
      await noCa.close();
    } finally {
      await client.close();
      await squid.stop();
    }
  });

  it('refuses unreadable or half-given TLS files when the client is created', () => {
    expect(() => createLedgerClient({ baseUrl, tls: { caFile: join(dir, 'missing.pem') } })).toThrow(/tls\.caFile/);
    expect(() => createLedgerClient({ baseUrl, tls: { certFile: join(dir, 'client.pem') } })).toThrow(/tls\.keyFile/);
  });
});
