import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, startNginx, type NginxServer } from '../../scripts/nginx-server.js';
import { createLedgerClient, updateFormat } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

/**
 * nginx as a plain reverse proxy that does not pass WebSocket upgrades (no `Upgrade`/`Connection` headers
 * forwarded, HTTP/1.0 upstream), a common configuration in front of participants (docs/network-paths.md).
 * HTTP reads go through; a WebSocket read reaches the participant as a plain GET, which answers the legacy
 * 404, so today's client fails at once with a typed error instead of waiting. The `auto` transport's
 * fallback (the read engine's) will build on this fixture.
 */

const nginx = findNginx();
if (!nginx && process.env['CI']) throw new Error('nginx (Debian package nginx or nginx-light) is required under CI but is not installed');

describe.skipIf(!nginx)('a proxy that does not pass WebSocket upgrades', () => {
  let sandbox: Sandbox;
  let proxy: NginxServer;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 10 });
    const upstream = new URL(sandbox.url).host;
    proxy = await startNginx(
      (port) => `
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://${upstream};
    }
  }`,
    );
  });
  afterAll(async () => {
    await proxy?.stop();
    await sandbox?.close();
  });

  it('HTTP reads work; a WebSocket read fails at once with a typed error (the upgrade was not passed)', async () => {
    const client = createLedgerClient({ baseUrl: `http://127.0.0.1:${proxy.port}` });
    try {
      const end = (await client.ledgerEnd()).offset;
      const alice = sandbox.partyId('Alice');
      const request = { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat().transactions((t) => t.parties(alice)).build() };
      expect((await lastValueFrom(client.updates(request).pipe(toArray()))).length).toBeGreaterThan(0);
      const error = await lastValueFrom(client.updates(request, { transport: 'websocket' })).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'LedgerApiError', status: 404 });
    } finally {
      await client.close();
    }
  });
});
