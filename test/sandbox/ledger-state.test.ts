import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { ACS, checkAgainstLog, createIou, LE, postUpdates, updateFormat } from './ledger-support.js';

describe('state routes and the ledger', () => {
  it('an empty ledger has ledger end 0 and pruned offsets 0', async () => {
    const sandbox = await startSandbox({ synchronizers: 2 });
    try {
      const end = await call(sandbox.url, 'GET', '/v2/state/ledger-end');
      expect(end.status).toBe(200);
      expect(end.json).toEqual({
        offset: 0,
        synchronizerTimes: sandbox.state.synchronizers.map((s) => ({ synchronizerId: s.id, recordTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/) })),
      });
      expect((await call(sandbox.url, 'GET', '/v2/state/latest-pruned-offsets')).json).toEqual({ participantPrunedUpToInclusive: 0, allDivulgedContractsPrunedUpToInclusive: 0 });
      expect(sandbox.updates()).toEqual([]);
      const r = await postUpdates(sandbox, { beginExclusive: 0, updateFormat: updateFormat('any') }, '?stream_idle_timeout_ms=50');
      expect(r.json).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('offsets increase strictly, are not contiguous, and are deterministic from randomSeed', async () => {
    const a = await startSandbox({ seed: 200, randomSeed: 7 });
    const b = await startSandbox({ seed: 200, randomSeed: 7 });
    const c = await startSandbox({ seed: 200, randomSeed: 8 });
    try {
      const offsets = a.updates().map((u) => u.offset);
      expect(offsets).toHaveLength(200);
      for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBeGreaterThan(offsets[i - 1] as number);
      const gaps = offsets.filter((o, i) => i > 0 && o - (offsets[i - 1] as number) > 1).length;
      expect(gaps).toBeGreaterThan(20);
      expect(b.updates()).toEqual(a.updates().map((u) => ({ ...u, recordTime: expect.any(String) })));
      expect(c.updates().map((u) => u.offset)).not.toEqual(offsets);
      // The ledger end is past the last update: invisible events follow it (the checkpoint points there).
      expect(a.ledgerEnd()).toBeGreaterThan(offsets.at(-1) as number);
      const end = await call(a.url, 'GET', '/v2/state/ledger-end');
      expect((end.json as { offset: number }).offset).toBe(a.ledgerEnd());
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('seeds 10^5 transactions quickly and serves them in pages', async () => {
    const started = Date.now();
    const sandbox = await startSandbox({ seed: 100_000, seedPayloadBytes: 300, maxListElements: 1000 });
    try {
      const seedMs = Date.now() - started;
      expect(seedMs).toBeLessThan(5000);
      const ledger = sandbox.state.ledger;
      expect(ledger.size).toBe(100_000);
      const mid = ledger.at(50_000)?.offset as number;
      const page = await postUpdates(sandbox, { beginExclusive: mid, updateFormat: updateFormat('any', LE) }, '?limit=1000');
      const elements = checkAgainstLog(sandbox, page.json, { transactions: { shape: LE, parties: 'any' } }, { beginExclusive: mid, truncated: true });
      expect(elements).toHaveLength(1000);
      const created = (elements[0]?.value['events'] as Record<string, { createArgument?: unknown }>[])[0];
      const argument = Object.values(created ?? {})[0]?.createArgument;
      if (argument && typeof argument === 'object' && 'memo' in argument) expect(JSON.stringify(argument).length).toBeGreaterThan(250);
      // A party's ACS delta, paged to the end with limit = N, misses nothing.
      const alice = sandbox.partyId('Alice');
      const window = ledger.at(3000)?.offset as number;
      let begin = 0;
      let seen = 0;
      for (;;) {
        const r = await postUpdates(sandbox, { beginExclusive: begin, endInclusive: window, updateFormat: updateFormat([alice]) }, '?limit=1000');
        const got = checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: [alice] } }, { beginExclusive: begin, endInclusive: window, truncated: true });
        if (got.length === 0) break;
        seen += got.length;
        begin = got.at(-1)?.offset as number;
      }
      const expected = sandbox.updates({ endInclusive: window }).filter((u) => u.kind === 'Transaction' && u.events.some((e) => (e.kind === 'Created' ? e.acsDelta && [...e.signatories, ...e.observers].includes(alice) : e.acsDelta && e.stakeholders.includes(alice))));
      expect(seen).toBe(expected.length);
    } finally {
      await sandbox.close();
    }
  });

  it('the handle seeds on demand, prunes, and reports its log', async () => {
    const sandbox = await startSandbox();
    try {
      sandbox.seed(50);
      expect(sandbox.updates()).toHaveLength(50);
      const alice = sandbox.partyId('Alice');
      const r = await sandbox.submit({ commands: [createIou(alice, alice)], commandId: 'after-seed', actAs: [alice] });
      expect(sandbox.updates({ beginExclusive: r.offset - 1 })).toEqual([expect.objectContaining({ kind: 'Transaction', offset: r.offset, updateId: r.updateId, commandId: 'after-seed' })]);
      sandbox.prune(r.offset);
      expect((await call(sandbox.url, 'GET', '/v2/state/latest-pruned-offsets')).json).toEqual({ participantPrunedUpToInclusive: r.offset, allDivulgedContractsPrunedUpToInclusive: r.offset });
      expect(() => sandbox.seed(-1)).toThrow(RangeError);
      expect(() => sandbox.partyId('Nobody')).toThrow();
    } finally {
      await sandbox.close();
    }
  });

  it('the live workload appends transactions at the given rate until stopped', async () => {
    const sandbox = await startSandbox({ generate: 200, listWaitMs: 100 });
    try {
      const begin = sandbox.ledgerEnd();
      const r = await postUpdates(sandbox, { beginExclusive: begin, updateFormat: updateFormat('any') }, '?limit=20&stream_idle_timeout_ms=2000');
      const elements = checkAgainstLog(sandbox, r.json, { transactions: { shape: ACS, parties: 'any' } }, { beginExclusive: begin, truncated: true });
      expect(elements.length).toBe(20);
      sandbox.stopWorkload();
      const stoppedAt = sandbox.updates().length;
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(sandbox.updates().length).toBe(stoppedAt);
      sandbox.startWorkload(100);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sandbox.updates().length).toBeGreaterThan(stoppedAt);
      expect(() => sandbox.startWorkload(0)).toThrow(RangeError);
    } finally {
      await sandbox.close();
    }
  });
});
