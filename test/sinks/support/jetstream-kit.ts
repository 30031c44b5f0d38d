import { connect } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { firstValueFrom, take, toArray } from 'rxjs';
import { findNatsServer } from '../../../scripts/nats-server.js';
import { consumeLedgerFromJetStream } from '../../../src/sinks/jetstream/consume-ledger-from-jetstream.js';
import { updateOffset } from '../../../src/updates/update-offset.js';

/** The nats-server binary; under CI a missing one is an error, elsewhere the tests skip. */
export function natsServerOrSkip(): string | undefined {
  const bin = findNatsServer();
  if (!bin && process.env['CI']) throw new Error('nats-server is required under CI but is not installed');
  return bin;
}

/** Every element's offset in `stream`, in stream order, read back with consumeLedgerFromJetStream (ordered); tried again while a cluster elects leaders. */
export async function streamOffsets(servers: string, stream: string): Promise<number[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOffsets(servers, stream);
    } catch (error) {
      if (attempt >= 10) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Resolves with the number of messages in `stream` (asking again while a cluster elects leaders). */
export async function messageCount(servers: string, stream: string): Promise<number> {
  const nc = await connect({ servers: servers.split(','), maxReconnectAttempts: 20 });
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    for (let attempt = 1; ; attempt++) {
      try {
        return (await leaderInfo(jsm, stream)).state.messages;
      } catch (error) {
        if (attempt >= 40) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } finally {
    await nc.close();
  }
}

/**
 * The stream's info as its leader has it. A cluster node that does not know the stream's leader (just
 * restarted, still catching up) answers from its own copy, which may be far behind; such an answer is
 * refused (and retried by the callers), as JetStreamSink refuses it when it reads the tip.
 */
async function leaderInfo(jsm: JetStreamManager, stream: string): Promise<StreamInfo> {
  const info = await jsm.streams.info(stream);
  if (info.cluster !== undefined && !info.cluster.leader) throw new Error(`stream '${stream}' has no known leader on the node that answered`);
  return info;
}

async function readOffsets(servers: string, stream: string): Promise<number[]> {
  const nc = await connect({ servers: servers.split(','), maxReconnectAttempts: 20 });
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    const n = (await leaderInfo(jsm, stream)).state.messages;
    if (n === 0) return [];
    const elements = await firstValueFrom(consumeLedgerFromJetStream({ connection: nc, stream }).pipe(take(n), toArray()));
    return elements.map((e) => updateOffset(e) as number);
  } finally {
    await nc.close();
  }
}

/** Resolves once `stream` holds at least `n` messages (polling), or rejects after `timeoutMs`. */
export async function waitForMessages(servers: string, stream: string, n: number, timeoutMs = 15_000): Promise<number> {
  const nc = await connect({ servers: servers.split(','), maxReconnectAttempts: 20 });
  try {
    const jsm = await jetstreamManager(nc, { checkAPI: false });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const count = await leaderInfo(jsm, stream).then((i) => i.state.messages, () => 0);
      if (count >= n) return count;
      if (Date.now() > deadline) throw new Error(`stream ${stream} holds ${count} of ${n} messages after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await nc.close();
  }
}

/** Resolves once `text()` contains `needle` (polling), or rejects after `timeoutMs`. */
export async function waitForText(text: () => string, needle: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!text().includes(needle)) {
    if (Date.now() > deadline) throw new Error(`no '${needle}' after ${timeoutMs} ms in:\n${text()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
