import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, startNginx, type NginxServer } from '../../scripts/nginx-server.js';
import { createLedgerClient, tailUpdates, updateFormat, updateOffset, type LedgerClient, type TailStatus } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../cli/support/run-in-process.js';

/**
 * nginx as a plain reverse proxy that does not pass WebSocket upgrades (no `Upgrade`/`Connection` headers
 * forwarded, HTTP/1.0 upstream), a common configuration in front of participants (docs/network-paths.md).
 * HTTP reads go through; a WebSocket read reaches the participant as a plain GET, which answers the legacy
 * 404, so the client fails at once with a typed error instead of waiting, and a read with transport `'auto'`
 * (library and CLI) falls back to HTTP at once and finishes, saying why. A second nginx answers upgrades
 * itself with its bare 502 page (no Canton body): the same fallback.
 */

const nginx = findNginx();
if (!nginx && process.env['CI']) throw new Error('nginx (Debian package nginx or nginx-light) is required under CI but is not installed');

describe.skipIf(!nginx)('a proxy that does not pass WebSocket upgrades', () => {
  let sandbox: Sandbox;
  let proxy: NginxServer;
  let refusing: NginxServer;
  const clients: LedgerClient[] = [];

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
    refusing = await startNginx(
      (port) => `
  server {
    listen 127.0.0.1:${port};
    location / {
      if ($http_upgrade != "") {
        return 502;
      }
      proxy_pass http://${upstream};
    }
  }`,
    );
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await proxy?.stop();
    await refusing?.stop();
    await sandbox?.close();
  });

  const format = () => updateFormat().transactions((t) => t.parties(sandbox.partyId('Alice'))).build();
  const clientOf = (server: NginxServer) => {
    const client = createLedgerClient({ baseUrl: `http://127.0.0.1:${server.port}` });
    clients.push(client);
    return client;
  };

  it('HTTP reads work; a WebSocket read fails at once with a typed error (the upgrade was not passed)', async () => {
    const client = clientOf(proxy);
    const end = (await client.ledgerEnd()).offset;
    const request = { beginExclusive: 0, endInclusive: end, updateFormat: format() };
    expect((await lastValueFrom(client.updates(request).pipe(toArray()))).length).toBeGreaterThan(0);
    const error = await lastValueFrom(client.updates(request, { transport: 'websocket' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'LedgerApiError', status: 404 });
  });

  it.each([
    ['passes the upgrade on as a plain GET (the legacy 404)', () => proxy, 'upgrade answered 404 without a Canton body (a proxy, or no WebSocket route)'],
    ['answers the upgrade with its bare 502', () => refusing, 'upgrade answered 502 by a proxy (no Canton body)'],
  ])("an 'auto' tail through an nginx that %s finishes over HTTP, every offset once and in order, and says why", async (_name, server, reason) => {
    const direct = createLedgerClient({ baseUrl: sandbox.url });
    clients.push(direct);
    const end = sandbox.ledgerEnd();
    const expected = await lastValueFrom(direct.updates({ beginExclusive: 0, endInclusive: end, updateFormat: format() }).pipe(toArray()));
    expect(expected.length).toBeGreaterThan(1);
    const statuses: TailStatus[] = [];
    const got = await lastValueFrom(tailUpdates(clientOf(server()), { transport: 'auto', beginExclusive: 0, endInclusive: end, updateFormat: format(), pageLimit: 4, onStatus: (s) => statuses.push(s) }).pipe(toArray()));
    const offsets = got.map((e) => updateOffset(e) ?? -1);
    offsets.slice(1).forEach((offset, i) => expect(offset).toBeGreaterThan(offsets[i] ?? Infinity));
    expect(got).toEqual(expected);
    const selected = statuses.filter((s) => s.type === 'transport-selected');
    expect(selected).toHaveLength(2);
    expect(selected[1]).toMatchObject({ transport: 'page', requested: 'auto', reason, refused: { transport: 'websocket' } });
    expect(statuses.some((s) => s.type === 'retrying')).toBe(false);
  });

  it('ledger-rx tail --transport auto --to end through it finishes, with one line saying it fell back', async () => {
    const end = sandbox.ledgerEnd();
    const run = await runInProcess(['tail', '--url', `http://127.0.0.1:${proxy.port}`, '--transport', 'auto', '--to', 'end', '--party', sandbox.partyId('Alice'), '--stats']);
    expect(run.code, run.stderr).toBe(0);
    const offsets = run.stdout.split('\n').filter((l) => l !== '').map((l) => updateOffset(JSON.parse(l)) ?? -1);
    expect(offsets.length).toBeGreaterThan(1);
    expect(offsets.at(-1)).toBeLessThanOrEqual(end);
    offsets.slice(1).forEach((offset, i) => expect(offset).toBeGreaterThan(offsets[i] ?? Infinity));
    const fellBack = run.stderr.split('\n').filter((l) => l.includes('fell back'));
    expect(fellBack).toHaveLength(1);
    expect(fellBack[0]).toContain('fell back from websocket to page: upgrade answered 404 without a Canton body');
    expect(JSON.parse(run.stderr.trim().split('\n').at(-1) as string)).toMatchObject({ retries: 0, transport: 'page' });
  });
});
