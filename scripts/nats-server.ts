import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** One nats-server process with JetStream, started by {@link startNatsServer} or {@link startNatsCluster}. */
export interface NatsServer {
  /** Client URL, `nats://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Whether the process is running. */
  readonly running: boolean;
  /** The running process's id (`undefined` while it is stopped). */
  readonly pid: number | undefined;
  /** Kills the process with SIGKILL (its store stays: `start()` brings the same server back). */
  kill(): Promise<void>;
  /** Starts the process again on the same ports and store; resolves when it accepts clients. */
  start(): Promise<void>;
  /** Kills the process and removes its store. */
  stop(): Promise<void>;
}

/** A JetStream cluster of nats-server processes on loopback (see {@link startNatsCluster}). */
export interface NatsCluster {
  readonly servers: readonly NatsServer[];
  /** All client URLs, comma-separated (what a client is given to fail over). */
  readonly urls: string;
  stop(): Promise<void>;
}

/** The nats-server binary, or `undefined` when it is not installed. */
export function findNatsServer(): string | undefined {
  for (const candidate of ['/usr/sbin/nats-server', '/usr/bin/nats-server']) {
    if (spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  const path = which.stdout.trim();
  return path === '' ? undefined : path;
}

interface ServerSpec {
  readonly bin: string;
  readonly name: string;
  readonly port: number;
  readonly store: string;
  readonly cluster?: { readonly name: string; readonly port: number; readonly routes: readonly number[] };
}

function launch(spec: ServerSpec): Promise<ChildProcess> {
  const args = ['-a', '127.0.0.1', '-p', String(spec.port), '-js', '-sd', spec.store, '--server_name', spec.name];
  if (spec.cluster) {
    args.push('--cluster_name', spec.cluster.name, '--cluster', `nats://127.0.0.1:${spec.cluster.port}`);
    args.push('--routes', spec.cluster.routes.map((p) => `nats://127.0.0.1:${p}`).join(','));
  }
  const child = spawn(spec.bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server ${spec.name} did not start within 15 s:\n${log}`));
    }, 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (log.length < 20_000) log += chunk.toString();
      if (log.includes('Server is ready')) {
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server ${spec.name} exited with ${code}:\n${log}`));
    });
  });
}

function serverOf(spec: ServerSpec, first: ChildProcess): NatsServer {
  let child: ChildProcess | undefined = first;
  const kill = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  return {
    url: `nats://127.0.0.1:${spec.port}`,
    port: spec.port,
    get running() {
      return child !== undefined;
    },
    get pid() {
      return child?.pid;
    },
    kill,
    async start() {
      if (child) return;
      child = await launch(spec);
    },
    async stop() {
      await kill();
      rmSync(spec.store, { recursive: true, force: true });
    },
  };
}

/**
 * Starts one nats-server with JetStream (file store in a temporary directory) on a free loopback port and
 * resolves once it accepts clients; `undefined` when nats-server is not installed.
 */
export async function startNatsServer(): Promise<NatsServer | undefined> {
  const bin = findNatsServer();
  if (!bin) return undefined;
  const spec: ServerSpec = { bin, name: 'n1', port: await freePort(), store: mkdtempSync(join(tmpdir(), 'ledger-rx-nats-')) };
  return serverOf(spec, await launch(spec));
}

/**
 * Starts `size` nats-servers with JetStream forming one cluster (routes between all of them) on loopback;
 * resolves once every one accepts clients (the JetStream meta leader may still be electing: retry the
 * first stream creation). `undefined` when nats-server is not installed.
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster | undefined> {
  const bin = findNatsServer();
  if (!bin) return undefined;
  const clusterName = `ledger-rx-${process.pid}`;
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = await Promise.all(Array.from({ length: size }, () => freePort()));
  const specs: ServerSpec[] = ports.map((port, i) => ({
    bin,
    name: `n${i + 1}`,
    port,
    store: mkdtempSync(join(tmpdir(), `ledger-rx-nats-n${i + 1}-`)),
    cluster: { name: clusterName, port: routes[i] as number, routes: routes.filter((_, j) => j !== i) },
  }));
  const children = await Promise.all(specs.map((spec) => launch(spec)));
  const servers = specs.map((spec, i) => serverOf(spec, children[i] as ChildProcess));
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}
