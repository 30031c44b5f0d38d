import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { findServerBinary, listeningOrCleanedUp, stopServerProcess } from './server-process.js';

/** One nginx process started by {@link startNginx}. */
export interface NginxServer {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Its temporary prefix directory (config, logs, temp files). */
  readonly dir: string;
  /** Stops the process and removes its directory. */
  stop(): Promise<void>;
}

/** The nginx binary, or `undefined` when it is not installed. */
export function findNginx(): string | undefined {
  return findServerBinary('nginx', '-v');
}

/**
 * Starts nginx in the foreground on a free port of 127.0.0.1, as the current user, with everything it
 * writes (logs, pid, temp files) in a temporary directory. `server(port, dir)` returns the `server { … }`
 * block(s) of the `http` section; the port is the one to `listen` on. Resolves when nginx accepts
 * connections.
 */
export async function startNginx(server: (port: number, dir: string) => string): Promise<NginxServer> {
  const bin = findNginx();
  if (!bin) throw new Error('nginx is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-nginx-'));
  const port = await freePort();
  const config = [
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} info;`,
    'events { worker_connections 256; }',
    'http {',
    `  access_log ${join(dir, 'access.log')};`,
    `  client_body_temp_path ${join(dir, 'body')};`,
    `  proxy_temp_path ${join(dir, 'proxy')};`,
    `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
    `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
    `  scgi_temp_path ${join(dir, 'scgi')};`,
    server(port, dir),
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), config);
  const child = spawn(bin, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off; master_process off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString();
  });
  const log = () => {
    let file = '';
    try {
      file = readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      // no log yet
    }
    return `${stderr}\n${file}`;
  };
  await listeningOrCleanedUp('nginx', port, child, dir, log);
  return {
    port,
    dir,
    stop: () => stopServerProcess(child, dir),
  };
}
