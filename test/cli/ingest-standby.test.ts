import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { reportFigures } from '../support/ledger-oracle.js';
import { spawnCli, type SpawnedCli } from '../support/spawn-cli.js';
import { eventually } from '../support/eventually.js';
import { activeContractIds, visibleAcsDeltaOffsets } from './support/ledger-truth.js';
import { createRandom } from '../../src/sandbox/state/ids.js';

const pgUrl = inject('pgUrl');
const schema = `standby_${process.pid}_${Date.now() % 100_000}`;

/** A deterministic random source (mulberry32, the sandbox's own), so a run can be repeated from its seed. */
const random = createRandom;

interface Ingester {
  readonly name: string;
  readonly cli: SpawnedCli;
}

/** The JSON log lines of an ingester with message `msg`. */
function logged(i: Ingester, msg: string): { time: number; [key: string]: unknown }[] {
  return i.cli
    .stderr()
    .split('\n')
    .filter((l) => l.includes(`"msg":"${msg}`))
    .map((l) => JSON.parse(l) as { time: number });
}

/** Waits for `probe` to give a value, with no budget of its own (the test's timeout ends a hang). */
function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  return eventually(probe, what, { intervalMs: 20 });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

describe.runIf(pgUrl)('ingest --standby: a standby takes over from a killed or hung leader, exactly once', () => {
  let db: pg.Pool;
  let sandbox: Sandbox;
  const all: Ingester[] = [];
  let started = 0;

  const start = (): Ingester => {
    const name = `ingester-${++started}`;
    const cli = spawnCli([
      'ingest', '--url', sandbox.url, '--pg', pgUrl as string, '--schema', schema, '--stream-name', 's', '--standby',
      '--batch', '40', '--batch-ms', '50', '--lock-lease-ms', '1500', '--log-level', 'info',
    ]);
    const i = { name, cli };
    all.push(i);
    return i;
  };
  const alive = () => all.filter((i) => i.cli.child.exitCode === null && i.cli.child.signalCode === null);
  /** The ingester that took the lock last and still runs. */
  const leader = () => {
    const leading = alive().filter((i) => logged(i, 'took the stream lock').length > 0);
    return leading.length === 1 ? leading[0] : undefined;
  };
  const stored = async () => Number((await db.query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.ledger_rx_checkpoints WHERE stream_name = 's'`)).rows[0]?.o ?? -1);

  beforeAll(async () => {
    db = new pg.Pool({ connectionString: pgUrl, max: 2 });
    sandbox = await startSandbox({ seed: 30, generate: 150, randomSeed: 7 });
  });
  afterAll(async () => {
    for (const i of alive()) i.cli.child.kill('SIGKILL');
    await sandbox?.close();
    await db?.end();
  });

  it('three ingesters, the leader SIGKILLed four times and hung (SIGSTOP) once while the sandbox writes: every offset once, in order', async () => {
    const seed = 20_261_124;
    const rnd = random(seed);
    start();
    start();
    start();
    const first = await until(leader, 'a first leader');
    // the others are standbys, not ready: they said so and did not take the lock
    await until(() => (alive().filter((i) => i !== first && logged(i, 'standby:').length > 0).length === 2 ? true : undefined), 'two standbys');

    const killHandovers: number[] = [];
    for (let k = 0; k < 4; k++) {
      const current = await until(leader, 'a leader');
      const before = await stored();
      await until(async () => ((await stored()) > before ? true : undefined), 'a commit by the leader');
      await new Promise((r) => setTimeout(r, 100 + Math.floor(rnd() * 500)));
      const killedAt = Date.now();
      current.cli.child.kill('SIGKILL');
      start(); // the orchestrator's restart: a new standby
      const next = await until(() => {
        const l = leader();
        return l && l !== current ? l : undefined;
      }, 'a standby to take over');
      killHandovers.push(Math.max(0, (logged(next, 'took the stream lock')[0] as { time: number }).time - killedAt));
    }

    // a hung leader: its session falls silent, the server ends it after the lease, a standby takes over;
    // woken up, the old leader finds its lock lost and exits without committing anything more
    const hung = await until(leader, 'a leader');
    // hung while it ingests (as the kills above): after a commit of its own, not between taking the lock and
    // loading the checkpoint (woken there, it fails on its ended session loading the checkpoint instead)
    const storedBefore = await stored();
    await until(async () => ((await stored()) > storedBefore ? true : undefined), 'a commit by the leader to hang');
    const stoppedAt = Date.now();
    hung.cli.child.kill('SIGSTOP');
    const next = await until(() => alive().find((i) => i !== hung && logged(i, 'took the stream lock').length > 0), 'a takeover from the hung leader');
    const hungHandover = (logged(next, 'took the stream lock')[0] as { time: number }).time - stoppedAt;
    hung.cli.child.kill('SIGCONT');
    const woken = await hung.cli.exited;
    expect(woken.code, hung.cli.stderr().slice(-2_000)).toBe(1);
    expect(hung.cli.stderr()).toContain('lost the stream lock');

    sandbox.stopWorkload();
    const end = sandbox.ledgerEnd();
    const truth = visibleAcsDeltaOffsets(sandbox, end);
    const lastVisible = truth[truth.length - 1] as number;
    await until(async () => ((await stored()) >= lastVisible ? true : undefined), 'the leader to catch up');
    for (const i of alive()) i.cli.child.kill('SIGTERM');
    for (const i of all) {
      const exit = await i.cli.exited;
      if (exit.signal !== 'SIGKILL' && i !== hung) expect(exit.code, `${i.name}: ${i.cli.stderr().slice(-2_000)}`).toBe(0);
    }

    const offsets = (await db.query<{ o: string }>(`SELECT ledger_offset AS o FROM ${schema}.updates WHERE stream_name = 's' ORDER BY ledger_offset`)).rows.map((r) => Number(r.o));
    const upTo = offsets.filter((o) => o <= end);
    expect(new Set(offsets).size).toBe(offsets.length);
    expect(upTo).toEqual(truth);
    const active = (await db.query<{ id: string }>(`SELECT contract_id AS id FROM ${schema}.active_contracts WHERE stream_name = 's' ORDER BY contract_id`)).rows.map((r) => r.id);
    expect(active).toEqual(activeContractIds(sandbox, end));

    const sorted = [...killHandovers].sort((a, b) => a - b);
    reportFigures('ingest-standby', {
      seed,
      ingesters: started,
      kills: killHandovers.length,
      handoverMsAfterKill: killHandovers.join(','),
      handoverP50Ms: percentile(sorted, 50),
      handoverMaxMs: sorted[sorted.length - 1] as number,
      handoverAfterHangMs: hungHandover,
      updates: offsets.length,
      lost: truth.filter((o) => !offsets.includes(o)).length,
      duplicated: offsets.length - new Set(offsets).size,
    });
    expect(hungHandover).toBeGreaterThanOrEqual(1_000); // the lease, not sooner
  }, 90_000);
});
