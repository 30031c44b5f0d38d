import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.js';
import { planNatsCluster, startNatsCluster, type NatsCluster } from '../../scripts/nats-server.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { visibleAcsDeltaOffsets } from '../cli/support/ledger-truth.js';
import { startCli, type LiveCli } from '../cli/support/run-cli.js';
import { runInProcess } from '../cli/support/run-in-process.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { messageCount, natsServerOrSkip, streamInfo, streamOffsets, waitForMessages, waitForText } from './support/jetstream-kit.js';

const bin = natsServerOrSkip();

/**
 * The end of a publish test: stops the running publisher (SIGTERM: exit 0), stops the sandbox's workload,
 * publishes the rest up to the ledger end with the same flags, and resolves with the stream's offsets and the
 * ledger's (what the stream must hold, once each, in order).
 */
async function finishAndRead(cli: LiveCli, args: readonly string[], sandbox: Sandbox, urls: string, stream: string, signal: AbortSignal): Promise<{ offsets: number[]; truth: number[] }> {
  cli.child.kill('SIGTERM');
  expect((await cli.exited).code, cli.stderr()).toBe(0);
  sandbox.stopWorkload();
  const end = sandbox.ledgerEnd();
  const final = await runInProcess([...args, '--to', 'end']);
  expect(final.code, final.stderr).toBe(0);
  return { offsets: await streamOffsets(urls, stream, { signal }), truth: visibleAcsDeltaOffsets(sandbox, end) };
}

/**
 * Every wait here is for a condition (a meta leader, a stream leader, a message count, a log line), never a
 * fixed time: the test's own timeout is the only budget, and vitest aborts `signal` when it passes.
 */
describe.runIf(bin)('ledger-rx publish to a 3-node JetStream cluster (R3 stream)', () => {
  let cluster: NatsCluster;
  beforeAll(async () => {
    cluster = (await startNatsCluster(3)) as NatsCluster;
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  const publish = (urls: string, stream: string, sandboxUrl: string) => [
    'publish', '--nats', urls, '--stream', stream, '--subject-prefix', `ledger.${stream.toLowerCase()}`, '--replicas', '3', '--url', sandboxUrl,
    '--batch-ms', '2', '--ack-timeout-ms', '1000', '--retry-for-ms', '60000', '--no-progress',
  ];

  it('keeps publishing while the stream leader is killed, takes the node back, and stores every offset once', async ({ signal }) => {
    const sandbox = await startSandbox({ seed: 20, generate: 100 });
    const args = publish(cluster.urls, 'R3', sandbox.url);
    try {
      const cli = startCli(args);
      await waitForMessages(cluster.urls, 'R3', 20, { signal });
      const info = await streamInfo(cluster.urls, 'R3', { signal });
      expect(info.config.num_replicas).toBe(3);
      const leader = info.cluster?.leader;
      const victim = cluster.servers[Number(leader?.replace('n', '') ?? '1') - 1];
      if (!victim) throw new Error(`no server for leader ${leader}`);
      await victim.kill();
      const atKill = await messageCount(cluster.urls, 'R3', { signal });
      // two of three nodes keep the quorum: a new leader is elected and publishing goes on
      await waitForMessages(cluster.urls, 'R3', atKill + 30, { signal });
      await victim.start();
      const atReturn = await messageCount(cluster.urls, 'R3', { signal });
      await waitForMessages(cluster.urls, 'R3', atReturn + 20, { signal });
      const { offsets, truth } = await finishAndRead(cli, args, sandbox, cluster.urls, 'R3', signal);
      reportFigures('publish-cluster', { killed: leader ?? '?', atKill, atReturn, messages: offsets.length, lost: truth.filter((o) => !offsets.includes(o)).length, duplicated: offsets.length - new Set(offsets).size });
      expect(offsets).toEqual(truth);
    } finally {
      await sandbox.close();
    }
  }, 180_000);

  it('a publisher started before its cluster waits for it (no server, then one node without a quorum, then all), then stores every offset once', async ({ signal }) => {
    const later = (await planNatsCluster(3)) as NatsCluster;
    const sandbox = await startSandbox({ seed: 21, generate: 60 });
    const args = publish(later.urls, 'EARLY', sandbox.url);
    try {
      const cli = startCli(args);
      // nothing listens yet: the connection is refused, and the publisher says it waits
      await waitForText(cli.stderr, 'waiting for the JetStream cluster: connect to', { signal });
      const [first, ...rest] = later.servers;
      await first?.start();
      // one node of three: it accepts the connection but has no JetStream meta leader (no quorum)
      await waitForText(cli.stderr, "waiting for the JetStream cluster: read stream 'EARLY'", { signal });
      expect(cli.child.exitCode).toBeNull();
      await Promise.all(rest.map((s) => s.start()));
      await waitForMessages(later.urls, 'EARLY', 20, { signal });
      const { offsets, truth } = await finishAndRead(cli, args, sandbox, later.urls, 'EARLY', signal);
      expect(offsets).toEqual(truth);
    } finally {
      await sandbox.close();
      await later.stop();
    }
  }, 180_000);

  it('gives up after --retry-for-ms when no server ever answers, naming what it tried and for how long', async () => {
    const sandbox = await startSandbox({ seed: 22 });
    try {
      const nowhere = `nats://127.0.0.1:${await freePort()}`;
      const result = await runInProcess(['publish', '--nats', nowhere, '--stream', 'NONE', '--subject-prefix', 'ledger.none', '--url', sandbox.url, '--retry-for-ms', '1500', '--no-progress']);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain('waiting for the JetStream cluster: connect to');
      expect(result.stderr).toMatch(new RegExp(`JetStream at ${nowhere.replace(/[.]/g, '\\.')} was not ready after \\d+ ms: connect to ${nowhere.replace(/[.]/g, '\\.')} failed \\d+ times`));
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
