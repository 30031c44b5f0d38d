import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { activeContractIds, visibleAcsDeltaOffsets, visibleLedgerEffectsOffsets } from './support/ledger-truth.js';
import { runCli, startCli } from './support/run-cli.js';

const pgUrl = inject('pgUrl');

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
const unique = `${process.pid}_${Date.now() % 100000}`;

/** The expected event rows of the sandbox's log up to `end`, for an any-party read. */
function expectedEvents(sandbox: Sandbox, end: number) {
  let createdAcs = 0;
  let archivedAcs = 0;
  let createdAll = 0;
  let exercisedAll = 0;
  for (const u of sandbox.updates({ endInclusive: end })) {
    if (u.kind !== 'Transaction') continue;
    for (const e of u.events) {
      if (e.kind === 'Created') {
        createdAll++;
        if (e.acsDelta) createdAcs++;
      } else {
        exercisedAll++;
        if (e.acsDelta) archivedAcs++;
      }
    }
  }
  return { createdAcs, archivedAcs, createdAll, exercisedAll };
}

describe.runIf(pgUrl)('ledger-rx ingest (spawned CLI, PostgreSQL)', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = new pg.Pool({ connectionString: pgUrl, max: 2 });
  });
  afterAll(async () => {
    await db.end();
  });

  const offsetsOf = async (schema: string, stream: string) =>
    (await db.query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.updates WHERE stream_name = $1 ORDER BY ledger_offset`, [stream])).rows.map((r) =>
      Number(r.o),
    );
  const countOf = async (schema: string, table: string, stream: string) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.${table} WHERE stream_name = $1`, [stream])).rows[0]?.n;
  const activeOf = async (schema: string, stream: string) =>
    (await db.query<{ id: string }>(`SELECT contract_id AS id FROM ${schema}.active_contracts WHERE stream_name = $1 ORDER BY contract_id`, [stream])).rows.map(
      (r) => r.id,
    );

  it('ingests --to end: the rows equal the ledger in both shapes (two streams, one database)', async () => {
    const sandbox = await startSandbox({ seed: 600 });
    try {
      const schema = `ing_shapes_${unique}`;
      const end = sandbox.ledgerEnd();
      const [delta, effects] = await Promise.all([
        runCli(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'delta', '--url', sandbox.url, '--to', 'end', '--batch', '97', '--stats', '--log-level', 'warn']),
        runCli(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'effects', '--shape', 'ledger-effects', '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']),
      ]);
      expect(delta.code, delta.stderr).toBe(0);
      expect(effects.code, effects.stderr).toBe(0);
      const expected = expectedEvents(sandbox, end);

      expect(await offsetsOf(schema, 'delta')).toEqual(visibleAcsDeltaOffsets(sandbox, end));
      expect(await countOf(schema, 'created_events', 'delta')).toBe(expected.createdAcs);
      expect(await countOf(schema, 'archived_events', 'delta')).toBe(expected.archivedAcs);
      expect(await countOf(schema, 'exercised_events', 'delta')).toBe(0);
      expect(await activeOf(schema, 'delta')).toEqual(activeContractIds(sandbox, end));
      const stats = JSON.parse(delta.stderr.trim().split('\n').at(-1) as string);
      expect(stats.count).toBe(visibleAcsDeltaOffsets(sandbox, end).length);

      expect(await offsetsOf(schema, 'effects')).toEqual(visibleLedgerEffectsOffsets(sandbox, end));
      expect(await countOf(schema, 'created_events', 'effects')).toBe(expected.createdAll);
      expect(await countOf(schema, 'exercised_events', 'effects')).toBe(expected.exercisedAll);
      expect(await countOf(schema, 'archived_events', 'effects')).toBe(0);
      expect(await activeOf(schema, 'effects')).toEqual(activeContractIds(sandbox, end));

      const checkpoints = await db.query<{ stream_name: string; ledger_offset: string }>(
        `SELECT stream_name, ledger_offset FROM ${schema}.ledger_rx_checkpoints ORDER BY stream_name`,
      );
      expect(checkpoints.rows.map((r) => r.stream_name)).toEqual(['delta', 'effects']);
      for (const r of checkpoints.rows) {
        const rows = await offsetsOf(schema, r.stream_name);
        expect(Number(r.ledger_offset)).toBeGreaterThanOrEqual(rows.at(-1) as number);
        expect(Number(r.ledger_offset)).toBeLessThanOrEqual(end);
      }

      // a second run has nothing left to do
      const again = await runCli(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'delta', '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
      expect(again.code).toBe(0);
      expect(await offsetsOf(schema, 'delta')).toEqual(visibleAcsDeltaOffsets(sandbox, end));
    } finally {
      await sandbox.close();
    }
  });

  it('a pruned --from fails fast with exit 3 and the earliest available offset', async () => {
    const sandbox = await startSandbox({ seed: 100 });
    try {
      const at = visibleAcsDeltaOffsets(sandbox)[20] as number;
      sandbox.prune(at);
      const result = await runCli(['ingest', '--pg', pgUrl as string, '--schema', `ing_pruned_${unique}`, '--url', sandbox.url, '--from', '0', '--log-level', 'warn']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`earliest available offset: ${at}`);
      expect(result.stderr).not.toContain('retrying'); // "fast": the first answer ends it, nothing is retried
    } finally {
      await sandbox.close();
    }
  });

  it('a pruned participant: --from begin (the default) ingests what it still has; --from after the ledger end exits 2', async () => {
    const sandbox = await startSandbox({ seed: 100 });
    try {
      const at = visibleAcsDeltaOffsets(sandbox)[20] as number;
      sandbox.prune(at);
      const end = sandbox.ledgerEnd();
      const schema = `ing_pruned_begin_${unique}`;
      const result = await runCli(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
      expect(result.code, result.stderr).toBe(0);
      expect(await offsetsOf(schema, 'default')).toEqual(visibleAcsDeltaOffsets(sandbox, end).filter((o) => o > at));
      const beyond = await runCli(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'beyond', '--url', sandbox.url, '--from', String(end + 50), '--log-level', 'warn'], { timeoutMs: 10_000 });
      expect(beyond.code, beyond.stderr).toBe(2);
      expect(beyond.stderr).toContain(`--from ${end + 50} is after the ledger end (${end})`);
    } finally {
      await sandbox.close();
    }
  });

  it('--to end retries an unreachable participant like the read does, and exits 4', async () => {
    const port = await closedPort();
    const result = await runCli(['ingest', '--pg', pgUrl as string, '--schema', `ing_unreachable_${unique}`, '--url', `http://127.0.0.1:${port}`, '--to', 'end', '--max-retries', '1', '--log-level', 'warn']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain('RETRIES_EXHAUSTED');
  });

  it('SIGTERM while waiting for the stream lock exits 0 at once, with nothing written', async () => {
    const sandbox = await startSandbox({ seed: 60 });
    const schema = `ing_lockstop_${unique}`;
    const holder = await db.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [`ledger-rx-ingest:${schema}:default`]);
      const cli = startCli(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--to', 'end', '--lock-wait-ms', '8000', '--log-level', 'info']);
      const deadline = Date.now() + 10_000;
      while (!cli.stderr().includes('schema ready') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300)); // waiting for the lock now
      const stoppedAt = Date.now();
      cli.child.kill('SIGTERM');
      const { code } = await cli.exited;
      expect(code, cli.stderr()).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(2_000);
      expect(cli.stderr()).not.toMatch(/"level":50|error:/);
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [`ledger-rx-ingest:${schema}:default`]);
      expect(await offsetsOf(schema, 'default')).toEqual([]);
      expect((await db.query(`SELECT count(*)::int AS n FROM ${schema}.ledger_rx_checkpoints`)).rows[0].n).toBe(0);
    } finally {
      holder.release();
      await sandbox.close();
    }
  });

  it('SIGTERM commits the open batch and exits 0; a second ingester of the same stream is refused', async () => {
    const sandbox = await startSandbox({ seed: 200, generate: 30 });
    const schema = `ing_term_${unique}`;
    const args = ['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--batch-ms', '100', '--log-level', 'warn'];
    try {
      const cli = startCli(args);
      const deadline = Date.now() + 10_000;
      while (((await offsetsOf(schema, 'default').catch(() => [])) as number[]).length < 150 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const second = await runCli([...args, '--lock-wait-ms', '300']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain("another process is ingesting stream 'default'");
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
      const checkpoint = Number((await db.query(`SELECT ledger_offset FROM ${schema}.ledger_rx_checkpoints`)).rows[0].ledger_offset);
      expect(await offsetsOf(schema, 'default')).toEqual(visibleAcsDeltaOffsets(sandbox, checkpoint));
    } finally {
      await sandbox.close();
    }
  });

  it('is exactly-once across kill -9 at random moments while the ledger grows', async () => {
    const sandbox = await startSandbox({ seed: 1500, generate: 150 });
    const schema = `ing_kill_${unique}`;
    const args = ['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--batch', '60', '--batch-ms', '30', '--log-level', 'info', '--lock-wait-ms', '20000'];
    const seedValue = 7;
    let seed = seedValue;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const kills = 8;
    try {
      const seen: number[] = [];
      for (let round = 0; round < kills; round++) {
        const cli = startCli(args);
        // random moments counted from the schema being ready, not from the spawn: under load the start-up
        // alone can take longer than the delay, and then no run would ever commit anything
        const started = Date.now();
        while (!cli.stderr().includes('schema ready') && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, Math.floor(random() * 1100)));
        cli.child.kill('SIGKILL');
        const { signal } = await cli.exited;
        expect(signal).toBe('SIGKILL');
        const offsets = await offsetsOf(schema, 'default').catch(() => []);
        // after every kill the stored rows and the stored checkpoint agree: both come from the same commits
        const checkpoint = await db
          .query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.ledger_rx_checkpoints WHERE stream_name = 'default'`)
          .then((r) => (r.rows[0] ? Number(r.rows[0].o) : undefined), () => undefined);
        if (offsets.length > 0) expect(checkpoint).toBeGreaterThanOrEqual(offsets.at(-1) as number);
        expect(new Set(offsets).size).toBe(offsets.length);
        seen.push(offsets.length);
      }
      expect(seen.at(-1)).toBeGreaterThan(0); // the killed runs made progress
      const rowsAtKills = seen.filter((n, i) => i === 0 || n > (seen[i - 1] as number)).length;
      sandbox.stopWorkload();
      const end = sandbox.ledgerEnd();
      const final = await runCli([...args, '--to', 'end']);
      expect(final.code, final.stderr).toBe(0);

      const offsets = await offsetsOf(schema, 'default');
      const truth = visibleAcsDeltaOffsets(sandbox, end);
      reportFigures('ingest-kill', {
        seed: seedValue,
        kills,
        killsAfterProgress: rowsAtKills,
        updatesAtKills: seen.join(','),
        updates: offsets.length,
        lost: truth.filter((o) => !offsets.includes(o)).length,
        duplicated: offsets.length - new Set(offsets).size,
      });
      expect(offsets).toEqual(truth);
      const expected = expectedEvents(sandbox, end);
      expect(await countOf(schema, 'created_events', 'default')).toBe(expected.createdAcs);
      expect(await countOf(schema, 'archived_events', 'default')).toBe(expected.archivedAcs);
      expect(await activeOf(schema, 'default')).toEqual(activeContractIds(sandbox, end));
    } finally {
      await sandbox.close();
    }
  }, 90_000); // eight start-ups of the CLI: slow when the machine is loaded
});
