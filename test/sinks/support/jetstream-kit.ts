import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstreamManager, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { firstValueFrom, take, toArray } from 'rxjs';
import { findNatsServer } from '../../../scripts/nats-server.js';
import { consumeLedgerFromJetStream } from '../../../src/sinks/jetstream/consume-ledger-from-jetstream.js';
import { updateOffset } from '../../../src/updates/update-offset.js';
import { eventually } from '../../support/eventually.js';

/** The nats-server binary; under CI a missing one is an error, elsewhere the tests skip. */
export function natsServerOrSkip(): string | undefined {
  const bin = findNatsServer();
  if (!bin && process.env['CI']) throw new Error('nats-server is required under CI but is not installed');
  return bin;
}

/**
 * These helpers wait for conditions, never for a fixed time: each polls until what it waits for holds and
 * stops when `signal` (the test context's, aborted by vitest when the test times out) aborts.
 */
type Wait = { readonly signal?: AbortSignal | undefined };

/** Runs `use` on a connection to `servers` that keeps reconnecting (a cluster node may be down). */
async function withConnection<T>(servers: string, use: (nc: NatsConnection, jsm: JetStreamManager) => Promise<T>): Promise<T> {
  const nc = await connect({ servers: servers.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 100, waitOnFirstConnect: true });
  try {
    return await use(nc, await jetstreamManager(nc, { checkAPI: false, timeout: 2_000 }));
  } finally {
    await nc.close();
  }
}

/**
 * The stream's info as its leader has it. A cluster node that does not know the stream's leader (just
 * restarted, still catching up) answers from its own copy, which may be far behind; such an answer is
 * refused (and asked again by the callers), as JetStreamSink refuses it when it reads the tip.
 */
async function leaderInfo(jsm: JetStreamManager, stream: string): Promise<StreamInfo> {
  const info = await jsm.streams.info(stream);
  if (info.cluster !== undefined && !info.cluster.leader) throw new Error(`stream '${stream}' has no known leader on the node that answered`);
  return info;
}

/** The stream's info once a leader answers for it (in a cluster: once the stream's leader is elected). */
export function streamInfo(servers: string, stream: string, wait: Wait = {}): Promise<StreamInfo> {
  return withConnection(servers, (_, jsm) => eventually(() => leaderInfo(jsm, stream), `the leader of stream '${stream}'`, { ...wait, intervalMs: 100 }));
}

/** Every element's offset in `stream`, in stream order, read back with consumeLedgerFromJetStream (ordered), once a leader answers. */
export function streamOffsets(servers: string, stream: string, wait: Wait = {}): Promise<number[]> {
  return withConnection(servers, async (nc, jsm) => {
    const n = (await eventually(() => leaderInfo(jsm, stream), `the leader of stream '${stream}'`, { ...wait, intervalMs: 100 })).state.messages;
    if (n === 0) return [];
    const elements = await firstValueFrom(consumeLedgerFromJetStream({ connection: nc, stream }).pipe(take(n), toArray()));
    return elements.map((e) => updateOffset(e) as number);
  });
}

/** The number of messages in `stream` as its leader has it. */
export async function messageCount(servers: string, stream: string, wait: Wait = {}): Promise<number> {
  return (await streamInfo(servers, stream, wait)).state.messages;
}

/** Resolves with the stream's message count once it holds at least `n` messages. */
export function waitForMessages(servers: string, stream: string, n: number, wait: Wait = {}): Promise<number> {
  return withConnection(servers, (_, jsm) =>
    eventually(
      async () => {
        const count = (await leaderInfo(jsm, stream)).state.messages;
        if (count < n) throw new Error(`${count} messages`);
        return count;
      },
      `${n} messages in stream '${stream}'`,
      wait,
    ),
  );
}

/** Resolves once `text()` contains `needle`. */
export async function waitForText(text: () => string, needle: string, wait: Wait = {}): Promise<void> {
  await eventually(() => (text().includes(needle) ? true : undefined), `'${needle}' in the output so far`, { ...wait, intervalMs: 20 });
}
