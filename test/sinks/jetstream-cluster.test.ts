import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsCluster, type NatsCluster } from '../../scripts/nats-server.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { visibleAcsDeltaOffsets } from '../cli/support/ledger-truth.js';
import { runCli, startCli } from '../cli/support/run-cli.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { messageCount, natsServerOrSkip, streamOffsets, waitForMessages, waitForText } from './support/jetstream-kit.js';

const bin = natsServerOrSkip();

describe.runIf(bin)('ledger-rx publish to a 3-node JetStream cluster (R3 stream)', () => {
  let cluster: NatsCluster;
  beforeAll(async () => {
    cluster = (await startNatsCluster(3)) as NatsCluster;
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('keeps publishing while the stream leader is killed, takes the node back, and stores every offset once', async () => {
    const sandbox = await startSandbox({ seed: 20, generate: 100 });
    const args = ['publish', '--nats', cluster.urls, '--stream', 'R3', '--subject-prefix', 'ledger.r3', '--replicas', '3', '--url', sandbox.url,
      '--batch-ms', '2', '--ack-timeout-ms', '1000', '--retry-for-ms', '30000', '--no-progress'];
    try {
      const cli = startCli(args);
      await waitForText(cli.stderr, "the stream's last message", 30_000);
      await waitForMessages(cluster.urls, 'R3', 20);
      const nc = await connect({ servers: cluster.urls.split(',') });
      const jsm = await jetstreamManager(nc, { checkAPI: false });
      const info = await jsm.streams.info('R3');
      expect(info.config.num_replicas).toBe(3);
      const leader = info.cluster?.leader;
      await nc.close();
      const victim = cluster.servers[Number(leader?.replace('n', '') ?? '1') - 1];
      if (!victim) throw new Error(`no server for leader ${leader}`);
      await victim.kill();
      const atKill = await messageCount(cluster.urls, 'R3');
      // two of three nodes keep the quorum: a new leader is elected and publishing goes on
      await waitForMessages(cluster.urls, 'R3', atKill + 30, 20_000);
      await victim.start();
      await new Promise((r) => setTimeout(r, 500));
      const atReturn = await messageCount(cluster.urls, 'R3');
      await waitForMessages(cluster.urls, 'R3', atReturn + 20, 20_000);
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code, cli.stderr()).toBe(0);
      sandbox.stopWorkload();
      const end = sandbox.ledgerEnd();
      const final = await runCli([...args, '--to', 'end']);
      expect(final.code, final.stderr).toBe(0);
      const offsets = await streamOffsets(cluster.urls, 'R3');
      const truth = visibleAcsDeltaOffsets(sandbox, end);
      reportFigures('publish-cluster', { killed: leader ?? '?', atKill, atReturn, messages: offsets.length, lost: truth.filter((o) => !offsets.includes(o)).length, duplicated: offsets.length - new Set(offsets).size });
      expect(offsets).toEqual(truth);
    } finally {
      await sandbox.close();
    }
  }, 90_000);
});
