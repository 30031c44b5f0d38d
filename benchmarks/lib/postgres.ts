/**
 * A throwaway PostgreSQL server for the ingest benchmark, started the way scripts/postgres-server.ts does it
 * (initdb into a temporary directory; as root, initdb and the server run as the `postgres` user), but with
 * the durability settings chosen by the caller: the benchmark measures the cost of committed transactions,
 * so by default fsync and synchronous_commit stay ON (PostgreSQL's defaults).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/free-port.js';

export interface PostgresServer {
  readonly url: string;
  readonly version: string;
  /** The postmaster's pid (the parent of every backend: `processTreeCpuMs` of it is the server's CPU time). */
  readonly pid: number;
  stop(): void;
}

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    for (const v of readdirSync(root).sort((a, b) => Number(b) - Number(a))) if (existsSync(join(root, v, 'bin', 'pg_ctl'))) return join(root, v, 'bin');
  }
  const path = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  return path ? path.slice(0, path.lastIndexOf('/')) : undefined;
}

/** Starts a server on a free loopback port (trust auth); `undefined` when PostgreSQL is not installed. */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer | undefined> {
  const bin = findBinDir();
  if (!bin) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-bench-pg-'));
  chmodSync(dir, 0o700);
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    ids = {
      uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
    };
    chownSync(dir, ids.uid, ids.gid);
  }
  const run = (cmd: string, args: string[]) => execFileSync(join(bin, cmd), args, { stdio: 'pipe', ...(ids ?? {}) });
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const durability = options.durable === false ? ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off' : '';
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50 -c shared_buffers=256MB${durability}`;
  run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
  const version = run('postgres', ['--version']).toString().trim();
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    pid,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    version,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
