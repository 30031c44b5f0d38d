import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { firstValueFrom, merge, take, toArray, map } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServer } from '../../scripts/nats-server.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { consumeLedgerFromJetStream } from '../../src/sinks/jetstream/consume-ledger-from-jetstream.js';
import type { StartUpWait } from '../../src/sinks/jetstream/retry-start-up.js';
import { elementText } from '../../src/updates/element-text.js';
import { updateOffset } from '../../src/updates/update-offset.js';
import { visibleAcsDeltaOffsets } from '../cli/support/ledger-truth.js';
import { expectSummary } from '../cli/support/expect-summary.js';
import { runCli, startCli } from '../cli/support/run-cli.js';
import { runInProcess } from '../cli/support/run-in-process.js';
import { eventually } from '../support/eventually.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { natsServerOrSkip, streamOffsets, waitForMessages, waitForText } from './support/jetstream-kit.js';

const bin = natsServerOrSkip();

describe.runIf(bin)('ledger-rx publish (spawned CLI, nats-server)', () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = (await startNatsServer()) as NatsServer;
  });
  afterAll(async () => {
    await server?.stop();
  });
  const publish = (stream: string, sandboxUrl: string, ...extra: string[]) => [
    'publish', '--nats', server.url, '--stream', stream, '--subject-prefix', `ledger.${stream.toLowerCase()}`, '--url', sandboxUrl, '--log-level', 'info', ...extra,
  ];

  it('publishes every element once in order with its bytes, subject and headers; resumes from the stream; consumers replay and share the load', async () => {
    const sandbox = await startSandbox({ seed: 120 });
    try {
      const end = sandbox.ledgerEnd();
      const first = await runCli(publish('ONE', sandbox.url, '--to', 'end'));
      expect(first.code, first.stderr).toBe(0);
      const truth = visibleAcsDeltaOffsets(sandbox, end);
      expect(await streamOffsets(server.url, 'ONE')).toEqual(truth);
      // without --stats, the last log line says what was published: every update, its first and last offsets
      // (a read bounded by --to carries no offset checkpoints: the range ends at the last visible update)
      expectSummary(first.stderr, 'published', { count: truth.length, firstOffset: truth[0] as number, lastOffset: truth.at(-1) as number });

      const again = await runInProcess(publish('ONE', sandbox.url, '--to', 'end', '--stats'));
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stderr.trim().split('\n').at(-1) as string)).toMatchObject({ count: 0 });
      expect(await streamOffsets(server.url, 'ONE')).toEqual(truth);

      const nc = await connect({ servers: server.url });
      try {
        const jsm = await jetstreamManager(nc);
        const m = await jsm.streams.getMessage('ONE', { seq: 1 });
        const first = JSON.parse(m?.string() ?? '') as { update: { Transaction: { value: { events: { CreatedEvent?: { templateId: string } }[] } } } };
        const [, module, entity] = (Object.values(first.update.Transaction.value.events[0] ?? {})[0] as { templateId: string }).templateId.split(':');
        expect(m?.subject).toBe(`ledger.one.transaction.ledger-rx-demo.${module}.${entity}`);
        expect(m?.header.get('Nats-Msg-Id')).toBe(`ONE:${truth[0]}`);
        expect(m?.header.get('Ledger-Offset')).toBe(String(truth[0]));
        expect(m?.header.get('Ledger-Kind')).toBe('transaction');
        expect(m?.header.get('Ledger-Update-Id')).toMatch(/^1220/);
        // replay from an offset: the same typed elements, the server's bytes kept
        const from = truth[Math.floor(truth.length / 2)] as number;
        const rest = truth.filter((o) => o > from);
        const replay = await firstValueFrom(consumeLedgerFromJetStream({ connection: nc, stream: 'ONE', afterOffset: from }).pipe(take(rest.length), toArray()));
        expect(replay.map(updateOffset)).toEqual(rest);
        expect(JSON.parse(elementText(replay[0] as object) as string)).toEqual(JSON.parse(new TextDecoder().decode((await jsm.streams.getMessage('ONE', { seq: truth.indexOf(rest[0] as number) + 1 }))?.data)));
        // two load-balanced consumers on one durable consumer together see every element once
        const worker = (name: string) => consumeLedgerFromJetStream({ connection: nc, stream: 'ONE', durable: 'workers', buffer: 4, handler: () => new Promise((r) => setTimeout(r, 1)) }).pipe(map((e) => [name, updateOffset(e) as number] as const));
        const seen = await firstValueFrom(merge(worker('a'), worker('b')).pipe(take(truth.length), toArray()));
        const offsets = seen.map(([, o]) => o).sort((a, b) => a - b);
        expect(offsets).toEqual(truth);
        expect(new Set(seen.map(([w]) => w)).size).toBe(2);
      } finally {
        await nc.close();
      }
    } finally {
      await sandbox.close();
    }
  });

  it('two publishers on one stream: the later one fails with SINK_CONFLICT (exit 1), the earlier one goes on, also when the later one stored messages first; nothing doubled', async ({ signal }) => {
    const sandbox = await startSandbox({ seed: 20, generate: 100 });
    try {
      const args = publish('TWO', sandbox.url, '--batch-ms', '1', '--no-progress');
      const a = startCli(args);
      await waitForMessages(server.url, 'TWO', 5, { signal });
      // a stalls (as on a loaded machine) while b starts: b publishes the ledger's newest updates before a
      // does, and a's first sends of them meet b's copies; then both race at the ledger's end
      a.child.kill('SIGSTOP');
      const paused = await waitForMessages(server.url, 'TWO', 0, { signal });
      const b = startCli(args);
      await waitForMessages(server.url, 'TWO', paused + 20, { signal });
      a.child.kill('SIGCONT');
      const firstExit = await Promise.race([a.exited.then((r) => ({ who: 'a', ...r })), b.exited.then((r) => ({ who: 'b', ...r }))]);
      expect(firstExit, a.stderr()).toMatchObject({ who: 'b', code: 1 });
      expect(b.stderr()).toContain('SINK_CONFLICT');
      expect(a.stderr()).toContain('a publisher that started later stored the same message first');
      const before = await waitForMessages(server.url, 'TWO', 0, { signal });
      await waitForMessages(server.url, 'TWO', before + 5, { signal });
      a.child.kill('SIGTERM');
      expect((await a.exited).code, a.stderr()).toBe(0);
      const offsets = await streamOffsets(server.url, 'TWO');
      const truth = visibleAcsDeltaOffsets(sandbox).filter((o) => o <= (offsets.at(-1) as number));
      expect(offsets).toEqual(truth);
    } finally {
      await sandbox.close();
    }
  });

  it('a consumer subscribed while the server is away waits for it (reporting each wait), then replays every element once', async ({ signal }) => {
    const sandbox = await startSandbox({ seed: 33 });
    try {
      const end = sandbox.ledgerEnd();
      const done = await runInProcess(publish('AWAY', sandbox.url, '--to', 'end'));
      expect(done.code, done.stderr).toBe(0);
      const truth = visibleAcsDeltaOffsets(sandbox, end);
      const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
      try {
        await server.kill();
        const waits: StartUpWait[] = [];
        const replay = firstValueFrom(consumeLedgerFromJetStream({ connection: nc, stream: 'AWAY', onWaiting: (w) => waits.push(w) }).pipe(take(truth.length), toArray()));
        await eventually(() => (waits.length > 0 ? true : undefined), 'a first wait', { signal });
        expect(waits[0]).toMatchObject({ step: "open a consumer of stream 'AWAY'", attempt: 1 });
        await server.start();
        expect((await replay).map(updateOffset)).toEqual(truth);
      } finally {
        await nc.close();
      }
    } finally {
      if (!server.running) await server.start();
      await sandbox.close();
    }
  });

  it('is exactly-once across kill -9 of the publisher and restarts of nats-server while the ledger grows', async ({ signal }) => {
    const sandbox = await startSandbox({ seed: 50, generate: 150 });
    const args = publish('KILL', sandbox.url, '--batch-ms', '2', '--ack-timeout-ms', '400', '--retry-for-ms', '20000', '--no-progress');
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const events: string[] = [];
    try {
      for (let round = 0; round < 6; round++) {
        const cli = startCli(args);
        await waitForText(cli.stderr, "the stream's last message", { signal });
        await new Promise((r) => setTimeout(r, 200 + Math.floor(random() * 600)));
        if (round % 2 === 1) {
          // the server goes away under the publisher and comes back: it must recover by itself
          await server.kill();
          await new Promise((r) => setTimeout(r, 300));
          await server.start();
          events.push('server-restart');
          await waitForText(cli.stderr, 'resumed publishing', { signal });
          await new Promise((r) => setTimeout(r, 300));
        }
        cli.child.kill('SIGKILL');
        expect((await cli.exited).signal).toBe('SIGKILL');
        events.push('kill');
        const offsets = await streamOffsets(server.url, 'KILL');
        expect(new Set(offsets).size).toBe(offsets.length);
        expect(offsets).toEqual([...offsets].sort((x, y) => x - y));
      }
      sandbox.stopWorkload();
      const end = sandbox.ledgerEnd();
      const final = await runInProcess([...args, '--to', 'end']);
      expect(final.code, final.stderr).toBe(0);
      const offsets = await streamOffsets(server.url, 'KILL');
      const truth = visibleAcsDeltaOffsets(sandbox, end);
      reportFigures('publish-kill', { events: events.join(','), messages: offsets.length, lost: truth.filter((o) => !offsets.includes(o)).length, duplicated: offsets.length - new Set(offsets).size });
      expect(offsets).toEqual(truth);
    } finally {
      await sandbox.close();
    }
  }, 90_000);
});
