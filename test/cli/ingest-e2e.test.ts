import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newCommandId } from '../../src/client/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { call } from '../support/sandbox-http.js';
import { rawActiveSet } from './support/raw-active-set.js';
import { activeContractIds, visibleAcsDeltaOffsets, visibleLedgerEffectsOffsets } from './support/ledger-truth.js';
import { eventually } from '../support/eventually.js';
import { expectSummary } from './support/expect-summary.js';
import { runCli, startCli } from './support/run-cli.js';
import { runInProcess, startInProcess } from './support/run-in-process.js';

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

/** Creates an Iou of `party` (through the sandbox's own submission) and returns its contract id. */
async function createIou(sandbox: Sandbox, party: string): Promise<string> {
  const createArguments = { issuer: party, owner: party, currency: 'CHF', amount: '1.0000000000', observers: [] };
  const result = await sandbox.submit({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments } }], commandId: newCommandId('acs'), actAs: [party] });
  return result.contractIds[0] as string;
}

/** Submits one (un)assignment as raw HTTP; resolves with its reassignment id. */
async function reassign(sandbox: Sandbox, party: string, kind: 'UnassignCommand' | 'AssignCommand', value: Record<string, string>): Promise<string> {
  const r = await call(sandbox.url, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
    body: {
      reassignmentCommands: { userId: 'participant_admin', commandId: newCommandId('r'), submitter: party, commands: [{ command: { [kind]: { value } } }] },
      eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: false },
    },
  });
  expect(r.status, r.text).toBe(200);
  const event = Object.values((r.json as { reassignment: { events: Record<string, { value?: { reassignmentId: string }; reassignmentId?: string }>[] } }).reassignment.events[0] ?? {})[0];
  return (event?.value?.reassignmentId ?? event?.reassignmentId) as string;
}

/** Waits for `what` to hold, with no budget of its own (the test's timeout ends a hang). */
const waitFor = async (what: () => boolean | Promise<boolean>) => {
  await eventually(async () => ((await what()) ? true : undefined), 'the condition', { intervalMs: 25 });
};

// The runs are in process (the program of `createProgram`, the same flags) unless a process is the point:
// the runs killed with -9, a real SIGINT and SIGTERM, and a second process refused the stream's lock. The
// smoke run of the built entry is in ingest-embedded.test.ts.
describe.runIf(pgUrl)('ledger-rx ingest (PostgreSQL)', () => {
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
        runInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'delta', '--url', sandbox.url, '--to', 'end', '--batch', '97', '--stats', '--log-level', 'warn']),
        runInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'effects', '--shape', 'ledger-effects', '--url', sandbox.url, '--to', 'end', '--log-level', 'info']),
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
      // without --stats, the last log line says what was stored: the rows' count, the first row to the checkpoint
      const effectsRows = await offsetsOf(schema, 'effects');
      const effectsCheckpoint = Number(checkpoints.rows.find((r) => r.stream_name === 'effects')?.ledger_offset);
      expectSummary(effects.stderr, 'ingested', { count: effectsRows.length, firstOffset: effectsRows[0] as number, lastOffset: effectsCheckpoint });

      // a second run has nothing left to do
      const again = await runInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'delta', '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
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
      const result = await runInProcess(['ingest', '--pg', pgUrl as string, '--schema', `ing_pruned_${unique}`, '--url', sandbox.url, '--from', '0', '--log-level', 'warn']);
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
      const result = await runInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
      expect(result.code, result.stderr).toBe(0);
      expect(await offsetsOf(schema, 'default')).toEqual(visibleAcsDeltaOffsets(sandbox, end).filter((o) => o > at));
      const beyond = await runInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--stream-name', 'beyond', '--url', sandbox.url, '--from', String(end + 50), '--log-level', 'warn']);
      expect(beyond.code, beyond.stderr).toBe(2);
      expect(beyond.stderr).toContain(`--from ${end + 50} is after the ledger end (${end})`);
    } finally {
      await sandbox.close();
    }
  });

  /** The checkpoint and the active contracts of a stream, read in one snapshot of the database. */
  const storedState = async (schema: string, stream = 'default') => {
    const client = await db.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const checkpoint = await client.query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.ledger_rx_checkpoints WHERE stream_name = $1`, [stream]);
      const active = await client.query<{ id: string }>(`SELECT contract_id AS id FROM ${schema}.active_contracts WHERE stream_name = $1 ORDER BY contract_id`, [stream]);
      await client.query('COMMIT');
      const row = checkpoint.rows[0];
      return { checkpoint: row ? Number(row.o) : undefined, active: active.rows.map((r) => r.id).sort() };
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };

  it('a pruned participant: --from begin starts from the active contracts at the pruning offset, and active_contracts equals the participant\'s set (raw HTTP) at every checkpoint while the ledger moves', async () => {
    const sandbox = await startSandbox({ seed: 300, synchronizers: 2, maxListElements: 20_000 });
    const schema = `ing_acs_${unique}`;
    try {
      const alice = sandbox.partyId('Alice');
      const [s0, s1] = sandbox.state.synchronizers.map((s) => s.id) as [string, string];
      // in flight at the pruning offset: unassigned before it, assigned after the snapshot
      const moving = await createIou(sandbox, alice);
      const reassignmentId = await reassign(sandbox, alice, 'UnassignCommand', { contractId: moving, source: s0, target: s1 });
      const prunedAt = sandbox.ledgerEnd();
      sandbox.prune(prunedAt);
      const atPruning = await rawActiveSet(sandbox.url, prunedAt);
      expect(atPruning.inFlight).toEqual([moving]);
      expect(atPruning.active.length).toBeGreaterThan(50);

      sandbox.startWorkload(40); // creates, transfers (archives) after the pruning offset
      const cli = startInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--reassignments', '--batch', '20', '--batch-ms', '30', '--log-level', 'info']);
      await waitFor(() => cli.stderr().includes('active contracts stored'));
      expect(cli.stderr()).toContain('the participant is pruned: taking the active contracts at the pruning offset');
      await reassign(sandbox, alice, 'AssignCommand', { reassignmentId, source: s0, target: s1 });
      // every checkpoint seen while the ingest runs: the stored set is the participant's set at that offset
      const compared = new Set<number>();
      const until = Date.now() + 1_500;
      while (Date.now() < until || compared.size < 4) {
        const state = await storedState(schema);
        if (state.checkpoint !== undefined && !compared.has(state.checkpoint)) {
          expect(state.active, `active_contracts at checkpoint ${state.checkpoint}`).toEqual((await rawActiveSet(sandbox.url, state.checkpoint)).active);
          compared.add(state.checkpoint);
        }
        await new Promise((r) => setTimeout(r, 60));
      }
      expect(compared.has(prunedAt) || Math.min(...compared) > prunedAt).toBe(true);
      cli.signal('SIGTERM');
      expect(await cli.exited, cli.stderr()).toBe(0);
      sandbox.stopWorkload();

      const final = await storedState(schema);
      expect(final.active).toEqual((await rawActiveSet(sandbox.url, final.checkpoint as number)).active);
      expect(final.active).toContain(moving); // assigned after the snapshot: an update made it active
      expect(await offsetsOf(schema, 'default')).toEqual(
        sandbox
          .updates({ endInclusive: final.checkpoint as number })
          .filter((u) => u.offset > prunedAt && (u.kind === 'Reassignment' || (u.kind === 'Transaction' && u.events.some((e) => e.acsDelta))))
          .map((u) => u.offset),
      );
      const snapshot = await db.query(`SELECT snapshot_offset::int AS o, contracts::int AS n, incomplete_unassigned::int AS f FROM ${schema}.ledger_rx_snapshots`);
      expect(snapshot.rows).toEqual([{ o: prunedAt, n: atPruning.active.length, f: 1 }]);
      const origins = await db.query<{ origin: string; n: number }>(`SELECT origin, count(*)::int AS n FROM ${schema}.active_contracts GROUP BY origin ORDER BY origin`);
      expect(origins.rows.map((r) => r.origin)).toEqual(['snapshot', 'update']);
      const movedRow = await db.query(`SELECT origin, synchronizer_id AS s FROM ${schema}.active_contracts WHERE contract_id = $1`, [moving]);
      expect(movedRow.rows).toEqual([{ origin: 'update', s: s1 }]);
    } finally {
      await sandbox.close();
    }
  });

  it('--from acs is crash safe: SIGINT or kill -9 during the snapshot leaves nothing, one after it resumes without a new snapshot; every offset once', async () => {
    const sandbox = await startSandbox({ seed: 400, maxListElements: 20_000, generate: 40 });
    const proxy = await startFaultProxy({ target: sandbox.url });
    const schema = `ing_acs_kill_${unique}`;
    const args = ['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', proxy.url, '--from', 'acs', '--batch', '50', '--batch-ms', '30', '--log-level', 'info'];
    try {
      const count = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM ${schema}.${table}`)).rows[0].n as number;
      // 1. the snapshot stalls half-way (two chunks inserted in the open transaction): kill -9 there
      const size = (await rawActiveSet(sandbox.url, sandbox.ledgerEnd())).active.length;
      expect(size).toBeGreaterThanOrEqual(200);
      const stallHalfWay = () => proxy.schedule([{ kind: 'ws-stall', afterFrames: Math.floor(size / 2) }], { match: (_m, path) => path === '/v2/state/active-contracts' });
      // 0. SIGINT during the stalled snapshot: exit 0 at once, the open transaction rolled back
      stallHalfWay();
      const interrupted = startCli(args);
      await waitFor(() => interrupted.stderr().includes('taking the active contracts') && proxy.applied() === 1);
      await new Promise((r) => setTimeout(r, 400));
      const stoppedAt = Date.now();
      interrupted.child.kill('SIGINT');
      expect((await interrupted.exited).code, interrupted.stderr()).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(3_000);
      expect(interrupted.stderr()).not.toMatch(/active contracts stored|"level":50/);
      expect([await count('ledger_rx_checkpoints'), await count('active_contracts'), await count('ledger_rx_snapshots'), await count('updates')]).toEqual([0, 0, 0, 0]);
      stallHalfWay();
      const first = startCli(args);
      await waitFor(() => first.stderr().includes('taking the active contracts') && proxy.applied() === 1);
      await new Promise((r) => setTimeout(r, 400));
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(first.stderr()).not.toContain('active contracts stored');
      expect([await count('ledger_rx_checkpoints'), await count('active_contracts'), await count('ledger_rx_snapshots'), await count('updates')]).toEqual([0, 0, 0, 0]);

      // 2. a restart takes the snapshot again (at the ledger end now) and goes on; kill -9 once updates are stored
      proxy.schedule([]);
      const second = startCli(args);
      await waitFor(async () => second.stderr().includes('active contracts stored') && (await count('updates')) >= 3);
      second.child.kill('SIGKILL');
      expect((await second.exited).signal).toBe('SIGKILL');
      const snapshotAt = Number((await db.query(`SELECT snapshot_offset AS o FROM ${schema}.ledger_rx_snapshots`)).rows[0].o);
      const afterKill = await storedState(schema);
      expect(afterKill.active).toEqual((await rawActiveSet(sandbox.url, afterKill.checkpoint as number)).active);

      // 3. the last run resumes from the checkpoint: no snapshot again, the updates after it once each
      sandbox.stopWorkload();
      const end = sandbox.ledgerEnd();
      const last = await runInProcess([...args, '--to', 'end']);
      expect(last.code, last.stderr).toBe(0);
      expect(last.stderr).toContain('resuming after the stored position');
      expect(last.stderr).not.toContain('taking the active contracts');
      const final = await storedState(schema);
      // a bounded read carries no offset checkpoints: the position is the last update stored, which is the
      // ledger end unless the updates after it are invisible to the format (as in about one run in eight)
      expect(final.checkpoint).toBeGreaterThanOrEqual(visibleAcsDeltaOffsets(sandbox, end).at(-1) as number);
      expect(final.checkpoint).toBeLessThanOrEqual(end);
      expect(final.active).toEqual((await rawActiveSet(sandbox.url, end)).active);
      expect(await offsetsOf(schema, 'default')).toEqual(visibleAcsDeltaOffsets(sandbox, end).filter((o) => o > snapshotAt));
      expect(await count('ledger_rx_snapshots')).toBe(1);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });

  it('--wait-for-participant: --to end retries an unreachable participant like the read does, and exits 4', async () => {
    const port = await closedPort();
    const result = await runInProcess(['ingest', '--pg', pgUrl as string, '--schema', `ing_unreachable_${unique}`, '--url', `http://127.0.0.1:${port}`, '--to', 'end', '--max-retries', '1', '--log-level', 'warn', '--wait-for-participant']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain('RETRIES_EXHAUSTED');
  });

  it('SIGTERM while waiting for the stream lock exits 0 at once, with nothing written', async () => {
    const sandbox = await startSandbox({ seed: 60 });
    const schema = `ing_lockstop_${unique}`;
    const holder = await db.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [`ledger-rx-ingest:${schema}:default`]);
      const cli = startInProcess(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', sandbox.url, '--to', 'end', '--lock-wait-ms', '8000', '--log-level', 'info']);
      await waitFor(() => cli.stderr().includes('schema ready'));
      await new Promise((r) => setTimeout(r, 300)); // waiting for the lock now
      const stoppedAt = Date.now();
      cli.signal('SIGTERM');
      const code = await cli.exited;
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
      await waitFor(async () => ((await offsetsOf(schema, 'default').catch(() => [])) as number[]).length >= 150);
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
        await waitFor(() => cli.stderr().includes('schema ready') || cli.child.exitCode !== null);
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
      const final = await runInProcess([...args, '--to', 'end']);
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
