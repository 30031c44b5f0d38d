import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { findServerBinary, listeningOrCleanedUp, stopServerProcess } from './server-process.js';

/** One squid process started by {@link startSquid}. */
export interface SquidServer {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** `http://127.0.0.1:<port>`, the proxy URL to give a client. */
  readonly url: string;
  /** Its temporary directory (config, logs, pid). */
  readonly dir: string;
  /** The lines of its access log so far (one per request it handled, `CONNECT 127.0.0.1:7575` for a tunnel). */
  accessLog(): string[];
  /** Stops the process and removes its directory. */
  stop(): Promise<void>;
}

/** The squid binary, or `undefined` when it is not installed. */
export function findSquid(): string | undefined {
  return findServerBinary('squid', '-v');
}

/**
 * Starts squid in the foreground (`-N`) as a forward proxy on a free port of 127.0.0.1, with no cache and
 * everything it writes (logs, pid) in a temporary directory. `rules(port)` returns the `acl` and
 * `http_access` lines (squid denies what they do not allow); e.g. to allow tunnels to one port:
 * `acl target port 7575` / `http_access allow CONNECT target` / `http_access deny all` (the `CONNECT` acl is
 * predefined here). Resolves when squid accepts connections. Run as root, squid drops to its
 * `cache_effective_user`, so the directory is made writable for it.
 */
export async function startSquid(rules: (port: number) => string): Promise<SquidServer> {
  const bin = findSquid();
  if (!bin) throw new Error('squid is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-squid-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const config = [
    `http_port 127.0.0.1:${port}`,
    `pid_filename ${join(dir, 'squid.pid')}`,
    `cache_log ${join(dir, 'cache.log')}`,
    `access_log stdio:${join(dir, 'access.log')} squid`,
    'cache_store_log none',
    'logfile_rotate 0',
    `coredump_dir ${dir}`,
    'cache deny all',
    'cache_mem 8 MB',
    'pinger_enable off',
    'netdb_filename none',
    'shutdown_lifetime 0 seconds',
    'acl CONNECT method CONNECT',
    rules(port),
  ].join('\n');
  writeFileSync(join(dir, 'squid.conf'), `${config}\n`);
  const child = spawn(bin, ['-N', '-f', join(dir, 'squid.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString();
  });
  const read = (name: string): string => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return '';
    }
  };
  await listeningOrCleanedUp('squid', port, child, dir, () => `${stderr}\n${read('cache.log')}`);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    accessLog: () => read('access.log').split('\n').filter((line) => line !== ''),
    stop: () => stopServerProcess(child, dir),
  };
}
