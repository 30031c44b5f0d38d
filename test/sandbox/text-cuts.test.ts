import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { decodeGetUpdatesRequest } from '../../src/sandbox/decode/decode-get-updates-request.js';
import { compileUpdateFormat } from '../../src/sandbox/format/compile-update-format.js';
import type { ContractRecord, TransactionRecord } from '../../src/sandbox/ledger/update-record.js';
import { createUpdateRenderer } from '../../src/sandbox/render/create-update-renderer.js';
import { writeUtf8Pieces } from '../../src/sandbox/render/write-utf8-pieces.js';
import { call } from '../support/sandbox-http.js';

const memos = ['plain ASCII', 'Zürich', 'prix 5 €', 'emoji 😀 and \u2028 "quoted" \\ end'];

describe('writeUtf8Pieces', () => {
  it('writes the bytes of Buffer.from(text) for any cuts between characters (surrogate pairs kept whole)', () => {
    const text = `{"a":"${memos.join('","')}","b":[1,2,3]}`;
    const boundaries = [...text.matchAll(/[\s\S]/gu)].map((m) => m.index);
    for (const cuts of [[], [0], [text.length], boundaries.slice(1, 4), boundaries.filter((_, i) => i % 5 === 0), boundaries]) {
      const buf = Buffer.alloc(text.length * 3);
      const n = writeUtf8Pieces(buf, 0, text, cuts);
      expect(buf.subarray(0, n)).toEqual(Buffer.from(text));
    }
  });
});

describe("an update renderer's text cuts", () => {
  let sandbox: Sandbox;
  let end: number;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 30 });
    const [alice, bob] = [sandbox.partyId('Alice'), sandbox.partyId('Bob')];
    const iou = (memo: string) => ({
      CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: bob, currency: 'CHF', amount: '1.0', observers: [], memo } },
    });
    const asset = { CreateCommand: { templateId: '#ledger-rx-demo:Asset:Asset', createArguments: { issuer: alice, owner: bob, symbol: 'Zürich-1', amount: '2.0' } } };
    for (const [i, memo] of memos.entries()) await sandbox.submit({ commands: [iou(memo), asset, iou(`${memo} again`)], commandId: `cuts-${i}`, actAs: [alice] });
    end = sandbox.ledgerEnd();
  });
  afterAll(() => sandbox.close());

  it('bracket the create argument of every created event of a rendered transaction, for both shapes', () => {
    const ledger = sandbox.state.ledger;
    const txs = Array.from({ length: ledger.size }, (_, i) => ledger.at(i)).filter((u): u is TransactionRecord => u?.kind === 'transaction');
    for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']) {
      const request = decodeGetUpdatesRequest({
        beginExclusive: 0,
        updateFormat: { includeTransactions: { eventFormat: { filtersByParty: {}, filtersForAnyParty: { cumulative: [] } }, transactionShape: shape } },
      });
      const renderer = createUpdateRenderer(ledger, compileUpdateFormat(request.updateFormat as NonNullable<typeof request.updateFormat>, ledger.catalog));
      let created = 0;
      for (const tx of txs) {
        const text = renderer.render(tx);
        if (text === undefined) continue;
        const cuts = renderer.textCuts(text) ?? [];
        const events = (JSON.parse(text) as { update: { Transaction: { value: { events: { CreatedEvent?: unknown }[] } } } }).update.Transaction.value.events;
        const arguments_ = events.flatMap((e) => (e.CreatedEvent === undefined ? [] : [e.CreatedEvent]));
        expect(cuts).toHaveLength(arguments_.length * 2);
        const contracts = tx.nodes.filter((n): n is ContractRecord => n.kind === 'create');
        for (let i = 0; i < cuts.length; i += 2) {
          const argument = text.slice(cuts[i], cuts[i + 1]);
          expect(contracts.map((c) => c.argumentJson)).toContain(argument);
          expect(text.slice(0, cuts[i])).toMatch(/"createArgument":$/);
          created++;
        }
        expect(renderer.textCuts(`${text} `)).toBeUndefined();
        expect(renderer.textCuts(renderer.checkpoint({ offset: 1, synchronizerTimes: [] }))).toBeUndefined();
      }
      expect(created).toBeGreaterThan(3 * memos.length);
    }
  });

  it('raw WebSocket frames carry the non-ASCII text as UTF-8, byte for byte the elements of the HTTP list', async () => {
    const updateFormat = { includeTransactions: { eventFormat: { filtersByParty: {}, filtersForAnyParty: { cumulative: [] } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
    const request = { beginExclusive: 0, endInclusive: end, updateFormat };
    const frames: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`${sandbox.url.replace('http', 'ws')}/v2/updates`, ['daml.ws.auth']);
      ws.on('open', () => ws.send(JSON.stringify(request)));
      ws.on('message', (m: Buffer) => frames.push(Buffer.from(m)));
      ws.on('close', () => resolve());
      ws.on('error', reject);
    });
    const list = await call(sandbox.url, 'POST', '/v2/updates', { body: request });
    expect(list.status).toBe(200);
    const elements = list.json as unknown[];
    expect(frames).toHaveLength(elements.length);
    // each frame is exactly the UTF-8 of the element's JSON text (which JSON.stringify reproduces: the sandbox escapes nothing more)
    frames.forEach((frame, i) => expect(frame).toEqual(Buffer.from(JSON.stringify(elements[i]))));
    const text = frames.map((f) => f.toString('utf8')).join('\n');
    for (const memo of memos) expect(text).toContain(JSON.stringify(memo).slice(1, -1));
    expect(text).toContain('Zürich-1');
  });
});
