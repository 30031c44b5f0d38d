import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** A throwaway PostgreSQL server for tests and benchmarks. */
export interface PostgresServer {
  readonly url: string;
  stop(): void;
}

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(root, v, 'bin', 'pg_ctl'))) return join(root, v, 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  const path = which.stdout.trim();
  return path ? path.slice(0, path.lastIndexOf('/')) : undefined;
}

/**
 * Starts PostgreSQL in a temporary directory on a free loopback port, with trust authentication.
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user.
 * Returns `undefined` when the binaries are not installed.
 */
export async function startPostgres(): Promise<PostgresServer | undefined> {
  const bin = findBinDir();
  if (!bin) return undefined;
  const isRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-pg-'));
  chmodSync(dir, 0o700);
  let uid: number | undefined;
  let gid: number | undefined;
  if (isRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) =>
    execFileSync(join(bin, cmd), args, { stdio: 'pipe', ...(uid === undefined ? {} : { uid, gid }) });
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  // `-w` waits until the server accepts connections and fails at once if it exits; `-t` lifts pg_ctl's own
  // 60 s budget, so a slow start on a loaded machine is waited for (the caller's timeout ends a hang).
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '3600', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '3600', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
