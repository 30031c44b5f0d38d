import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTail } from '../../src/cli/tail/run-tail.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { captureIo } from './support/capture-io.js';
import { firstOrderViolation, offsetOfLine, visibleAcsDeltaOffsets } from './support/ledger-truth.js';

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('runTail (in process)', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 300 });
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-tail-'));
  });
  afterAll(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the ledger up to --to end, then the stats line', async () => {
    const io = captureIo();
    const code = await runTail({ source: { url: sandbox.url }, filter: {}, to: 'end', stats: true, logLevel: 'silent' }, io);
    expect(code).toBe(0);
    const offsets = lines(io.out()).map(offsetOfLine);
    expect(offsets).toEqual(visibleAcsDeltaOffsets(sandbox));
    const stats = JSON.parse(lines(io.err()).at(-1) as string);
    expect(stats).toMatchObject({ count: offsets.length, firstOffset: offsets[0], lastOffset: offsets.at(-1), retries: 0, transport: 'websocket' });
    expect(stats.bytes).toBe(Buffer.byteLength(io.out()));
  });

  it('resumes from a checkpoint file without duplicate or gap, and saves it only after the lines', async () => {
    const checkpoint = join(dir, 'resume.json');
    const out = join(dir, 'resume.ndjson');
    const first = captureIo();
    expect(await runTail({ source: { url: sandbox.url }, filter: {}, limit: 25, checkpointFile: checkpoint, out, logLevel: 'silent' }, first)).toBe(0);
    const afterFirst = lines(await readFile(out, 'utf8')).map(offsetOfLine);
    expect(afterFirst).toHaveLength(25);
    const saved = JSON.parse(await readFile(checkpoint, 'utf8'));
    expect(saved.offset).toBe(afterFirst.at(-1));
    const second = captureIo();
    expect(await runTail({ source: { url: sandbox.url }, filter: {}, to: 'end', checkpointFile: checkpoint, out, logLevel: 'silent' }, second)).toBe(0);
    const all = lines(await readFile(out, 'utf8')).map(offsetOfLine);
    expect(all).toEqual(visibleAcsDeltaOffsets(sandbox));
    expect(JSON.parse(await readFile(checkpoint, 'utf8')).offset).toBe(all.at(-1));
  });

  it('stops on SIGTERM: exit 0, the checkpoint covers exactly what was written', async () => {
    const live = await startSandbox({ seed: 20, generate: 30 });
    try {
      const checkpoint = join(dir, 'term.json');
      const out = join(dir, 'term.ndjson');
      const io = captureIo();
      const running = runTail({ source: { url: live.url }, filter: {}, checkpointFile: checkpoint, out, logLevel: 'silent', checkpointEveryMs: 50 }, io);
      await new Promise((r) => setTimeout(r, 600));
      io.signal('SIGTERM');
      expect(await running).toBe(0);
      const written = lines(await readFile(out, 'utf8')).map(offsetOfLine);
      expect(written.length).toBeGreaterThan(15);
      expect(firstOrderViolation(written)).toBe(-1);
      expect(JSON.parse(await readFile(checkpoint, 'utf8')).offset).toBeGreaterThanOrEqual(written.at(-1) as number);
    } finally {
      await live.close();
    }
  });

  it('a stop requested during the start-up ends with exit 0 and writes nothing', async () => {
    const checkpoint = join(dir, 'early-stop.json');
    const out = join(dir, 'early-stop.ndjson');
    const io = captureIo();
    const running = runTail({ source: { url: sandbox.url }, filter: {}, to: 'end', checkpointFile: checkpoint, out, logLevel: 'silent' }, io);
    io.signal('SIGTERM'); // while runTail still awaits its start-up (checks, the source, the ledger end)
    expect(await running).toBe(0);
    expect(io.err()).toBe('');
    expect(await readFile(out, 'utf8').catch(() => '')).toBe('');
    await expect(readFile(checkpoint, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a stop while the output is full: the checkpoint covers the line in hand, and a restart does not repeat it', async () => {
    const checkpoint = join(dir, 'backpressure.json');
    let text = '';
    let holding = true;
    const held: (() => void)[] = [];
    const stdout = new Writable({
      highWaterMark: 1, // every line fills the buffer: the handler waits for the drain after each one
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        if (holding) held.push(() => callback());
        else callback();
      },
    });
    const io = { ...captureIo(), stdout };
    const running = runTail({ source: { url: sandbox.url }, filter: {}, to: 'end', checkpointFile: checkpoint, logLevel: 'silent' }, io);
    const deadline = Date.now() + 10_000;
    while (held.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(held.length).toBe(1); // one line written, the reader stalled
    io.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 50));
    holding = false;
    for (const release of held.splice(0)) release();
    expect(await running).toBe(0);
    const written = lines(text).map(offsetOfLine);
    expect(written).toHaveLength(1);
    expect(JSON.parse(await readFile(checkpoint, 'utf8')).offset).toBe(written[0]);

    const restart = captureIo();
    expect(await runTail({ source: { url: sandbox.url }, filter: {}, to: 'end', checkpointFile: checkpoint, logLevel: 'silent' }, restart)).toBe(0);
    expect([...written, ...lines(restart.out()).map(offsetOfLine)]).toEqual(visibleAcsDeltaOffsets(sandbox));
  });

  it('--transport auto --to end through a proxy that swallows upgrades: finishes over HTTP and logs one line saying it fell back, and why', async () => {
    const proxy = await startFaultProxy({ target: sandbox.url });
    try {
      proxy.schedule(() => ({ kind: 'swallow-upgrade' }));
      const io = captureIo();
      const code = await runTail({ source: { url: proxy.url, transport: 'auto', webSocketHandshakeTimeoutMs: 200 }, filter: {}, to: 'end', stats: true, logLevel: 'info' }, io);
      expect(code, io.err()).toBe(0);
      const offsets = lines(io.out()).map(offsetOfLine);
      expect(offsets).toEqual(visibleAcsDeltaOffsets(sandbox));
      const fellBack = lines(io.err()).filter((l) => l.includes('fell back'));
      expect(fellBack).toHaveLength(1);
      expect(JSON.parse(fellBack[0] as string)).toMatchObject({ level: 40, msg: 'fell back from websocket to page: WebSocket handshake got no answer within 200 ms', reason: 'WebSocket handshake got no answer within 200 ms' });
      expect(JSON.parse(lines(io.err()).at(-1) as string)).toMatchObject({ count: offsets.length, retries: 0, transport: 'page' });
      expect(proxy.log.filter((r) => r.upgrade === true)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('sends --idle-timeout-ms and --long-poll-ms as the stream_idle_timeout_ms of catch-up and live pages', async () => {
    const proxy = await startFaultProxy({ target: sandbox.url });
    try {
      const io = captureIo();
      const running = runTail({ source: { url: proxy.url, transport: 'list' }, filter: {}, idleTimeoutMs: 37, longPollMs: 300, logLevel: 'silent' }, io);
      const idleValues = () => proxy.log
        .filter((r) => r.path.startsWith('/v2/updates'))
        .map((r) => new URL(`http://x${r.path}`).searchParams.get('stream_idle_timeout_ms'));
      // wait for the first long poll (the tail has caught up), however loaded the machine is
      const deadline = Date.now() + 30_000;
      while (!idleValues().includes('300') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      io.signal('SIGTERM');
      expect(await running).toBe(0);
      const idle = idleValues();
      expect(idle).toContain('37'); // catch-up pages
      expect(idle).toContain('300'); // the long poll once caught up
      expect(idle.every((v) => v === '37' || v === '300')).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('draws a progress line on a terminal and never writes a token', async () => {
    const io = captureIo({ stderrIsTTY: true, env: { LEDGER_RX_TOKEN: 'secret-token-value' } });
    const slow = await startSandbox({ seed: 5, generate: 50 });
    try {
      const running = runTail({ source: { url: slow.url }, filter: {}, logLevel: 'debug' }, io);
      // wait until a progress line with a rate has been drawn (the meter reports once a second)
      const erase = '\u001b[1G\u001b[2K'; // node:readline's cursorTo(0) and clearLine
      const statusLine = /^websocket · \d+ updates · [\d.,]+\/s · offset [\d,]+ · lag [\d,?]+$/;
      const drawn = () => io.err().split(erase).some((part) => statusLine.test(part));
      const deadline = Date.now() + 30_000;
      while (!drawn() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      io.signal('SIGINT');
      expect(await running).toBe(0);
      expect(io.err()).toContain(erase);
      expect(drawn()).toBe(true);
      expect(io.err()).not.toContain('secret-token-value');
    } finally {
      await slow.close();
    }
  });

  it('reports usage errors with exit 2 before contacting anyone', async () => {
    const io = captureIo();
    expect(await runTail({ source: {}, filter: {} }, io)).toBe(2);
    expect(io.err()).toContain('give --url URL');
    const both = captureIo();
    expect(await runTail({ source: { url: sandbox.url }, filter: {}, descending: true, checkpointFile: 'x' }, both)).toBe(2);
    const pg = captureIo();
    expect(await runTail({ source: { url: sandbox.url }, filter: {}, checkpointPg: 'postgres://x' }, pg)).toBe(2);
    expect(pg.err()).toContain('--stream-name');
  });

  describe('a participant that is not there', () => {
    let port: number;
    beforeAll(async () => {
      port = await new Promise<number>((resolve) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const p = (server.address() as { port: number }).port;
          server.close(() => resolve(p));
        });
      });
    });

    it('fails fast at start-up on a refused connection: one line, exit 4, no warning per attempt', async () => {
      for (const range of [{ to: 'end' as const }, { from: 'end' as const }, {}]) {
        const io = captureIo();
        const code = await runTail({ source: { url: `http://127.0.0.1:${port}`, startupGiveUpMs: 300 }, filter: {}, ...range, logLevel: 'info' }, io);
        expect(code, io.err()).toBe(4);
        expect(io.out()).toBe('');
        const errors = lines(io.err()).filter((l) => !l.startsWith('{'));
        expect(errors).toEqual([expect.stringMatching(new RegExp(`^error: cannot reach the participant at http://127.0.0.1:${port}: connection refused .*--wait-for-participant`))]);
        expect(io.err()).not.toContain('retrying');
      }
    });

    it('--wait-for-participant: retried like the read, a warning per retry, then RETRIES_EXHAUSTED (exit 4)', async () => {
      const io = captureIo();
      const code = await runTail({ source: { url: `http://127.0.0.1:${port}`, waitForParticipant: true }, filter: {}, to: 'end', maxRetries: 2, logLevel: 'warn' }, io);
      expect(code, io.err()).toBe(4);
      expect(io.err()).toContain('RETRIES_EXHAUSTED');
      expect(io.err()).toContain('/v2/state/ledger-end');
      expect(io.err().match(/request failed; retrying/g)).toHaveLength(2);
    });

    it('SIGTERM while waiting for the participant at start-up exits 0 at once, writing nothing', async () => {
      const io = captureIo();
      const running = runTail({ source: { url: `http://127.0.0.1:${port}`, waitForParticipant: true }, filter: {}, to: 'end', logLevel: 'warn' }, io);
      while (!io.err().includes('request failed; retrying')) await new Promise((r) => setTimeout(r, 20));
      io.signal('SIGTERM');
      expect(await running, io.err()).toBe(0);
      expect(io.out()).toBe('');
      expect(io.err()).not.toMatch(/"level":50|error:/);
    });
  });
});
