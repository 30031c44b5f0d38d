import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { spawnCli } from '../support/spawn-cli.js';

/**
 * The sandbox listens on loopback unless told otherwise, and honours `host` when told: a sandbox started
 * with defaults is unreachable through the machine's other addresses.
 */

/** A non-loopback IPv4 address of this machine, if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;
const hasIpv6Loopback = Object.values(networkInterfaces())
  .flat()
  .some((i) => i !== undefined && i.family === 'IPv6' && i.address === '::1');

/** Whether a TCP connection to `host:port` is accepted. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

let sandbox: Sandbox | undefined;
let checks = 0;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('where the sandbox listens', () => {
  it('binds to 127.0.0.1 by default: reachable on loopback only', async () => {
    sandbox = await startSandbox();
    expect(sandbox.host).toBe('127.0.0.1');
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    expect(await reachable('127.0.0.1', sandbox.port)).toBe(true);
    checks++;
    if (external) {
      expect(await reachable(external, sandbox.port), `not reachable through ${external}`).toBe(false);
      checks++;
    }
  });

  it.runIf(external)('honours host 0.0.0.0: reachable through the other addresses too', async () => {
    sandbox = await startSandbox({ host: '0.0.0.0' });
    expect(sandbox.host).toBe('0.0.0.0');
    expect(await reachable(external as string, sandbox.port)).toBe(true);
    expect(await reachable('127.0.0.1', sandbox.port)).toBe(true);
    checks++;
  });

  it.runIf(hasIpv6Loopback)('honours an IPv6 host, with a bracketed URL', async () => {
    sandbox = await startSandbox({ host: '::1' });
    expect(sandbox.url).toBe(`http://[::1]:${sandbox.port}`);
    expect(await reachable('::1', sandbox.port)).toBe(true);
    expect(await reachable('127.0.0.1', sandbox.port)).toBe(false);
    const res = await fetch(`${sandbox.url}/v2/version`);
    expect(res.status).toBe(200);
    checks++;
  });

  it('keeps its interface across restart()', async () => {
    sandbox = await startSandbox();
    await sandbox.restart();
    expect(await reachable('127.0.0.1', sandbox.port)).toBe(true);
    if (external) expect(await reachable(external, sandbox.port)).toBe(false);
    checks++;
  });

  it('`ledger-rx sandbox` binds to loopback unless --host is given', async () => {
    const cli = spawnCli(['sandbox', '--port', '0']);
    try {
      await cli.waitForLines(1, 15_000);
      const url = /listening on (\S+)/.exec(cli.lines()[0] ?? '')?.[1];
      expect(url, cli.stderr()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const port = Number(new URL(url as string).port);
      expect(await reachable('127.0.0.1', port)).toBe(true);
      if (external) expect(await reachable(external, port)).toBe(false);
      checks++;
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  }, 20_000);
});

afterAll(() => reportFigures('bind-host', { checks, externalAddress: external ?? 'none' }));
