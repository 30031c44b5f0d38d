import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { UpdateFault } from '../../src/sandbox/index.js';
import { ACS, checkAgainstLog, elementsOf, postUpdates, updateFormat } from './ledger-support.js';

/** The raw bytes of an answer, and whether the connection was cut before the end. */
function rawPost(url: string, path: string, body: unknown): Promise<{ status: number; text: string; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      let ended = false;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (ended = true));
      res.on('error', () => undefined);
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), cut: !ended || !res.complete }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

for (const mode of ['buffered', 'streamed'] as const) {
  describe(`fault injection (${mode})`, () => {
    let sandbox: Sandbox;
    let body: () => Record<string, unknown>;
    const query = '?limit=50';
    beforeAll(async () => {
      sandbox = await startSandbox({ seed: 8, responseMode: mode });
      body = () => ({ beginExclusive: 0, endInclusive: sandbox.ledgerEnd(), updateFormat: updateFormat('any') });
    });
    afterAll(() => sandbox.close());

    const clean = async () => {
      const r = await postUpdates(sandbox, body(), query);
      expect(r.status).toBe(200);
      return checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: 0, endInclusive: sandbox.ledgerEnd() });
    };

    it('malformed-json: raw non-JSON bytes mid-array, then the rest', async () => {
      const good = (await postUpdates(sandbox, body(), query)).json as unknown[];
      sandbox.injectFault({ kind: 'malformed-json', afterElements: 2 });
      const r = await rawPost(sandbox.url, `/v2/updates${query}`, body());
      expect(r.status).toBe(200);
      expect(r.cut).toBe(false);
      expect(() => JSON.parse(r.text)).toThrow();
      expect(r.text.startsWith(`[${JSON.stringify(good[0])},${JSON.stringify(good[1])},{"update":`)).toBe(true);
      expect(r.text.endsWith(`,${good.slice(2).map((e) => JSON.stringify(e)).join(',')}]`)).toBe(true);
      await clean();
    });

    it('schema-violation and unknown-variant: valid JSON, invalid element after n good ones', async () => {
      for (const kind of ['schema-violation', 'unknown-variant'] as const) {
        sandbox.injectFault({ kind, afterElements: 3 });
        const r = await postUpdates(sandbox, body(), query, { skipSpecCheck: true });
        const list = r.json as { update: Record<string, { value: Record<string, unknown> }> }[];
        expect(list).toHaveLength(9);
        const odd = list[3]?.update as Record<string, { value: Record<string, unknown> }>;
        if (kind === 'schema-violation') expect(odd['Transaction']?.value['updateId']).toBe(42);
        else expect(Object.keys(odd)).toEqual(['LedgerRxFutureUpdate']);
        checkAgainstLog(sandbox, list.filter((_, i) => i !== 3), { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: 0, endInclusive: sandbox.ledgerEnd() });
      }
      await clean();
    });

    it('offset-regression: a checkpoint below the previous element', async () => {
      sandbox.injectFault({ kind: 'offset-regression', afterElements: 4 });
      const r = await postUpdates(sandbox, body(), query);
      const elements = elementsOf(r.json);
      expect(elements[4]?.kind).toBe('OffsetCheckpoint');
      expect(elements[4]?.offset).toBeLessThan(elements[3]?.offset as number);
      await clean();
    });

    it('duplicate-offset: the previous element again, twice with times: 2', async () => {
      sandbox.injectFault({ kind: 'duplicate-offset', afterElements: 1, times: 2 });
      for (let i = 0; i < 2; i++) {
        const r = await postUpdates(sandbox, body(), query);
        const list = r.json as unknown[];
        expect(list).toHaveLength(9);
        expect(list[1]).toEqual(list[0]);
      }
      await clean();
      expect(() => sandbox.injectFault({ kind: 'duplicate-offset', afterElements: 0 })).toThrow(RangeError);
      expect(() => sandbox.injectFault({ kind: 'truncate', afterElements: -1 } as UpdateFault)).toThrow(RangeError);
    });

    it('truncate: the connection is cut in the middle of an element', async () => {
      sandbox.injectFault({ kind: 'truncate', afterElements: 5 });
      const r = await rawPost(sandbox.url, `/v2/updates${query}`, body());
      expect(r.status).toBe(200);
      expect(r.cut).toBe(true);
      expect(r.text.startsWith('[{"update"')).toBe(true);
      expect(() => JSON.parse(r.text)).toThrow();
      expect(r.text.split('{"update"')).toHaveLength(7);
      await clean();
    });

    it('a fault after more elements than the answer has goes at the end', async () => {
      sandbox.injectFault({ kind: 'unknown-variant', afterElements: 1000 });
      const r = await postUpdates(sandbox, body(), query, { skipSpecCheck: true });
      const list = r.json as { update: Record<string, unknown> }[];
      expect(list).toHaveLength(9);
      expect(Object.keys(list[8]?.update ?? {})).toEqual(['LedgerRxFutureUpdate']);
      await clean();
    });
  });
}
