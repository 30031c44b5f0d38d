/**
 * Throwaway nats-server processes with JetStream for the publish benchmark: one node, or a cluster of three
 * on loopback, started by the tests' launchers (scripts/nats-server.ts, compiled with the benchmarks), plus
 * what a benchmark needs: the process ids (to read their CPU time), the server's version, and a wait until
 * JetStream answers (a new cluster elects its meta leader first).
 */
import { spawnSync } from 'node:child_process';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { findNatsServer, startNatsCluster, startNatsServer, type NatsServer } from '../../scripts/nats-server.js';
import { sleep } from './proc.js';

export { findNatsServer };

export interface NatsServers {
  /** Client URLs, comma-separated. */
  readonly urls: string;
  readonly pids: readonly number[];
  /** `nats-server --version`. */
  readonly version: string;
  stop(): Promise<void>;
}

/** Starts `size` nats-servers (1: a single node; 3: a cluster) and resolves once JetStream answers. */
export async function startNats(size: 1 | 3): Promise<NatsServers> {
  const bin = findNatsServer();
  const started = !bin ? undefined : size === 1 ? await startNatsServer().then((s) => s && { servers: [s], urls: s.url, stop: () => s.stop() }) : await startNatsCluster(size);
  if (!bin || !started) throw new Error('nats-server is not installed (apt-get install nats-server)');
  const servers: readonly NatsServer[] = started.servers;
  const nc = await connect({ servers: started.urls.split(',') });
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    for (let attempt = 1; ; attempt++) {
      try {
        await jsm.getAccountInfo();
        break;
      } catch (error) {
        if (attempt >= 60) {
          await started.stop();
          throw error;
        }
        await sleep(500);
      }
    }
  } finally {
    await nc.close();
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { urls: started.urls, pids: servers.map((s) => s.pid as number), version, stop: () => started.stop() };
}
