import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { findServerBinary } from './server-process.js';

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
  /** Starts every server that is not running; resolves when each accepts clients. */
  start(): Promise<void>;
  /**
   * Resolves once the cluster's JetStream answers API requests (its meta leader is elected), asking every
   * 100 ms; rejects only with `signal`'s reason (the caller's test timeout is the budget).
   */
  jetStreamReady(signal?: AbortSignal): Promise<void>;
  stop(): Promise<void>;
}

/** The nats-server binary, or `undefined` when it is not installed. */
export function findNatsServer(): string | undefined {
  return findServerBinary('nats-server', '--version');
}

interface ServerSpec {
  readonly bin: string;
  readonly name: string;
  readonly port: number;
  readonly store: string;
  readonly cluster?: { readonly name: string; readonly port: number; readonly routes: readonly number[] };
}

/**
 * Starts nats-server for `spec` and resolves once it logs "Server is ready"; rejects if it exits first. No
 * time budget: a server that neither starts nor exits is left to the caller's timeout.
 */
function launch(spec: ServerSpec): Promise<ChildProcess> {
  const args = ['-a', '127.0.0.1', '-p', String(spec.port), '-js', '-sd', spec.store, '--server_name', spec.name];
  if (spec.cluster) {
    args.push('--cluster_name', spec.cluster.name, '--cluster', `nats://127.0.0.1:${spec.cluster.port}`);
    args.push('--routes', spec.cluster.routes.map((p) => `nats://127.0.0.1:${p}`).join(','));
  }
  const child = spawn(spec.bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (log.length < 20_000) log += chunk.toString();
      if (log.includes('Server is ready')) {
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`nats-server ${spec.name} exited with ${code}:\n${log}`)));
  });
}

function serverOf(spec: ServerSpec, first: ChildProcess | undefined): NatsServer {
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
 * resolves once every one accepts clients (the JetStream meta leader may still be electing: see
 * `jetStreamReady`). `undefined` when nats-server is not installed.
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster | undefined> {
  const cluster = await planNatsCluster(size);
  await cluster?.start();
  return cluster;
}

let clusters = 0;

/**
 * A cluster of `size` nats-servers as {@link startNatsCluster} makes it (ports, routes and stores chosen)
 * with no server started yet: `start()` (or each server's `start()`) brings them up. `undefined` when
 * nats-server is not installed.
 */
export async function planNatsCluster(size = 3): Promise<NatsCluster | undefined> {
  const bin = findNatsServer();
  if (!bin) return undefined;
  const clusterName = `ledger-rx-${process.pid}-${++clusters}`;
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = await Promise.all(Array.from({ length: size }, () => freePort()));
  const specs: ServerSpec[] = ports.map((port, i) => ({
    bin,
    name: `n${i + 1}`,
    port,
    store: mkdtempSync(join(tmpdir(), `ledger-rx-nats-n${i + 1}-`)),
    cluster: { name: clusterName, port: routes[i] as number, routes: routes.filter((_, j) => j !== i) },
  }));
  const servers = specs.map((spec) => serverOf(spec, undefined));
  const urls = servers.map((s) => s.url).join(',');
  return {
    servers,
    urls,
    async start() {
      await Promise.all(servers.map((s) => s.start()));
    },
    jetStreamReady: (signal) => jetStreamReady(urls, signal),
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}

/**
 * Resolves once JetStream at `urls` answers an account-info request (in a cluster: once its meta leader is
 * elected), asking every 100 ms on one connection; rejects only with `signal`'s reason.
 */
async function jetStreamReady(urls: string, signal?: AbortSignal): Promise<void> {
  const [{ connect }, { jetstreamManager }] = await Promise.all([import('@nats-io/transport-node'), import('@nats-io/jetstream')]);
  const nc = await connect({ servers: urls.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 100, waitOnFirstConnect: true });
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false, timeout: 1_000 });
    for (;;) {
      signal?.throwIfAborted();
      const ready = await jsm.getAccountInfo().then(() => true, () => false);
      if (ready) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await nc.close();
  }
}
