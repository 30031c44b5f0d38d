import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ACS, checkAgainstLog, createIou, LE, postUpdates, sleep, updateFormat } from './ledger-support.js';

/** Opens a raw streamed read; the caller consumes `res`. */
function open(url: string, path: string, body: unknown): Promise<{ res: IncomingMessage; destroy: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => resolve({ res, destroy: () => req.destroy() }));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('streamed response mode', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 300, responseMode: 'streamed', maxListElements: 10, listWaitMs: 100 });
  });
  afterAll(() => sandbox.close());

  const bounded = () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat('any', LE) });

  it('honours a limit above N in one chunked body, never 413', async () => {
    const r = await postUpdates(sandbox, bounded(), '?limit=250');
    expect(r.status).toBe(200);
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.headers['content-length']).toBeUndefined();
    const elements = checkAgainstLog(sandbox, r.json, { transactions: { shape: LE, parties: 'any' } }, { beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), truncated: true });
    expect(elements).toHaveLength(250);
    const all = await postUpdates(sandbox, bounded(), '?limit=100000');
    expect(checkAgainstLog(sandbox, all.json, { transactions: { shape: LE, parties: 'any' } }, { beginExclusive: 0, endInclusive: sandbox.ledgerEnd() })).toHaveLength(300);
  });

  it('without a limit the N+1 cap and the 413 apply as in buffered mode', async () => {
    const r = await postUpdates(sandbox, bounded());
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', cause: 'The number of matching elements (11) is greater than the node limit (10).' });
  });

  it('validation errors are still plain error answers', async () => {
    const r = await postUpdates(sandbox, { beginExclusive: -1, updateFormat: updateFormat('any') }, '?limit=5');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'NEGATIVE_OFFSET' });
  });

  it('writes elements as they are produced: an open-ended read shows its backlog before it ends, then new updates', async () => {
    const alice = sandbox.partyId('Alice');
    const begin = sandbox.updates().at(-3)?.offset as number;
    const started = Date.now();
    const { res } = await open(sandbox.url, '/v2/updates?limit=1000&stream_idle_timeout_ms=800', { beginExclusive: begin, updateFormat: updateFormat('any') });
    const chunks: string[] = [];
    let firstAt = 0;
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      if (chunks.length === 0) firstAt = Date.now() - started;
      chunks.push(c);
    });
    const ended = new Promise<void>((resolve) => res.on('end', () => resolve()));
    await sleep(300);
    expect(chunks.length).toBeGreaterThan(0);
    expect(firstAt).toBeLessThan(300);
    await sandbox.submit({ commands: [createIou(alice, alice)], commandId: 'live', actAs: [alice] });
    await ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    checkAgainstLog(sandbox, JSON.parse(chunks.join('')), { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: begin });
  });
});

describe('streamed mode with a large body', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 20_000, seedPayloadBytes: 2000, responseMode: 'streamed' });
  });
  afterAll(() => sandbox.close());

  const everything = () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat('any') });

  it('waits for the reader (backpressure) instead of buffering the whole answer', async () => {
    const { res } = await open(sandbox.url, '/v2/updates?limit=1000000', everything());
    const chunks: Buffer[] = [];
    const ended = new Promise<void>((resolve) => res.on('end', () => resolve()));
    await new Promise<void>((resolve) =>
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (chunks.length === 1) {
          res.pause();
          resolve();
        }
      }),
    );
    const baseline = process.memoryUsage().arrayBuffers;
    await sleep(400);
    const grown = process.memoryUsage().arrayBuffers - baseline;
    // The whole answer is about 60 MB; with backpressure the server holds only a few chunks meanwhile.
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    res.resume();
    await ended;
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.length).toBeGreaterThan(40_000_000);
    checkAgainstLog(sandbox, JSON.parse(text), { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: 0, endInclusive: sandbox.ledgerEnd() });
  });

  it('stops when the client goes away, and keeps serving', async () => {
    const { res, destroy } = await open(sandbox.url, '/v2/updates?limit=1000000', everything());
    await new Promise<void>((resolve) => res.once('data', () => resolve()));
    res.on('error', () => undefined);
    destroy();
    await sleep(50);
    const started = Date.now();
    const end = sandbox.updates({ endInclusive: 50 }).at(-1)?.offset as number;
    const r = await postUpdates(sandbox, { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat('any') }, '?limit=100');
    expect(r.status).toBe(200);
    checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: 0, endInclusive: end });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
