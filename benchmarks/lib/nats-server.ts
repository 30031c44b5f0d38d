/**
 * Throwaway nats-server processes with JetStream for the publish benchmark: one node, or a cluster of three
 * on loopback (routes between all of them), each with a file store in a temporary directory — the way the
 * tests start them (scripts/nats-server.ts), plus what a benchmark needs: the process ids (to read their CPU
 * time) and a wait until JetStream answers (a new cluster elects its meta leader first).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort } from './free-port.js';
import { sleep } from './proc.js';

export interface NatsServers {
  /** Client URLs, comma-separated. */
  readonly urls: string;
  readonly pids: readonly number[];
  /** `nats-server --version`. */
  readonly version: string;
  stop(): Promise<void>;
}

/** The nats-server binary, or `undefined` when it is not installed. */
export function findNatsServer(): string | undefined {
  const path = spawnSync('sh', ['-c', 'command -v nats-server || ls /usr/sbin/nats-server'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  return path ? path : undefined;
}

function launch(bin: string, args: readonly string[]): Promise<ChildProcess> {
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server did not start in 15 s:\n${text}`));
    }, 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (text.length < 20_000) text += chunk.toString();
      if (text.includes('Server is ready')) {
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}:\n${text}`));
    });
  });
}

/** Starts `size` nats-servers (1: a single node; 3: a cluster) and resolves once JetStream answers. */
export async function startNats(size: 1 | 3): Promise<NatsServers> {
  const bin = findNatsServer();
  if (!bin) throw new Error('nats-server is not installed (apt-get install nats-server)');
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = await Promise.all(Array.from({ length: size }, () => freePort()));
  const stores = ports.map((_, i) => mkdtempSync(join(tmpdir(), `ledger-rx-bench-nats-n${i + 1}-`)));
  const children = await Promise.all(
    ports.map((port, i) => {
      const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', stores[i] as string, '--server_name', `n${i + 1}`];
      if (size > 1) {
        args.push('--cluster_name', `bench-${process.pid}`, '--cluster', `nats://127.0.0.1:${routes[i]}`);
        args.push('--routes', routes.filter((_, j) => j !== i).map((p) => `nats://127.0.0.1:${p}`).join(','));
      }
      return launch(bin, args);
    }),
  );
  const urls = ports.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
          }),
      ),
    );
    for (const store of stores) rmSync(store, { recursive: true, force: true });
  };
  const nc = await connect({ servers: urls.split(',') });
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    for (let attempt = 1; ; attempt++) {
      try {
        await jsm.getAccountInfo();
        break;
      } catch (error) {
        if (attempt >= 60) {
          await stop();
          throw error;
        }
        await sleep(500);
      }
    }
  } finally {
    await nc.close();
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { urls, pids: children.map((c) => c.pid as number), version, stop };
}
