import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { JsonArrayScanner } from '../../src/streams/index.js';
import { runInProcess } from './support/run-in-process.js';

describe('ledger-rx tail writes each element exactly as the server sent it', () => {
  it('one NDJSON line per element, byte for byte the element of a raw POST /v2/updates', async () => {
    const sandbox = await startSandbox({ seed: 40 });
    try {
      const end = sandbox.ledgerEnd();
      const response = await request(`${sandbox.url}/v2/updates?limit=200`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          beginExclusive: 0,
          endInclusive: end,
          updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
        }),
      });
      const raw: string[] = [];
      const scanner = new JsonArrayScanner((_value, _index, text) => raw.push(text as string));
      scanner.write(Buffer.from(await response.body.arrayBuffer()));
      scanner.end();
      expect(raw.length).toBeGreaterThan(10);

      const run = await runInProcess(['tail', '--url', sandbox.url, '--any-party', '--to', String(end), '--log-level', 'warn']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.split('\n').filter(Boolean)).toEqual(raw);
    } finally {
      await sandbox.close();
    }
  });
});
