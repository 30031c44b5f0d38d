import { describe, expect, inject, it } from 'vitest';
import { newCommandId } from '../../src/client/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { embeddedStore, ingestToEnd, participantActiveAt, reassign, serverStore, type StoreUnderTest } from './support/store-fixture.js';

// The query store's SQL functions (docs/query-store.md) on what `ledger-rx ingest` stored, on both stores,
// against the sandbox's own answers read as raw HTTP.

const pgUrl = inject('pgUrl');
const unique = `${process.pid}_${Date.now() % 100000}`;

const num = (v: unknown) => (v === null || v === undefined ? v : Number(v));

async function createIou(sandbox: Sandbox, party: string): Promise<string> {
  const createArguments = { issuer: party, owner: party, currency: 'CHF', amount: '1.0000000000', observers: [] };
  const result = await sandbox.submit({ commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments } }], commandId: newCommandId('q'), actAs: [party] });
  return result.contractIds[0] as string;
}

/** active(NULL, at) as contract id → template id. */
async function storedActiveAt(store: StoreUnderTest, at: number | null): Promise<Map<string, string>> {
  const rows = await store.query<{ contract_id: string; template_id: string }>('SELECT contract_id, template_id FROM active(NULL, $1::bigint)', [at]);
  return new Map(rows.map((r) => [r.contract_id, r.template_id]));
}

const sorted = (m: Map<string, string>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));

/**
 * Every offset from `oldest` to `latest` on the server, every fifth (and both ends) on the embedded store, whose
 * WebAssembly PostgreSQL is several times slower: active(NULL, at) equals the participant's active contracts at `at`.
 */
async function expectActiveEverywhere(sandbox: Sandbox, store: StoreUnderTest, oldest: number, latest: number): Promise<number> {
  let compared = 0;
  const stride = store.kind === 'server' ? 1 : 5;
  const offsets = new Set<number>([latest]);
  for (let at = oldest; at <= latest; at += stride) offsets.add(at);
  for (const at of offsets) {
    expect(sorted(await storedActiveAt(store, at)), `active(NULL, ${at})`).toEqual(sorted(await participantActiveAt(sandbox, at)));
    compared++;
  }
  return compared;
}

const contractColumns =
  'template_fqn, payload_type, contract_id, payload, contract_key, created_at_offset, created_effective_at, archived_at_offset, archived_effective_at, ' +
  'assigned_at_offset, unassigned_at_offset, redaction_id, package_name, package_id, template_id, signatories, observers, witnesses, synchronizer_id, reassignment_counter';

/**
 * At the latest offset `active(name)` reads `active_contracts` (docs/query-store.md, "What the functions cost"):
 * every column of every row equals what the contracts' lives give, with and without a name.
 */
async function expectLatestEqualsLives(store: StoreUnderTest, name: string | null): Promise<number> {
  const fast = await store.query(`SELECT ${contractColumns} FROM active($1::text) ORDER BY contract_id`, [name]);
  const lives = await store.query(
    `SELECT DISTINCT ON (l.contract_id) ${contractColumns.split(', ').map((c) => `l.${c}`).join(', ')}
       FROM ledger_rx_contract_lives(ledger_rx_stream(), ledger_rx_template_ids($1::text)) l
      WHERE l.deactivated_at IS NULL ORDER BY l.contract_id, l.activated_at DESC`,
    [name],
  );
  expect(fast).toEqual(lives);
  return fast.length;
}

async function offsets(store: StoreUnderTest): Promise<{ oldest: number; latest: number }> {
  const [row] = await store.query<{ o: unknown; l: unknown }>('SELECT oldest_offset() AS o, latest_offset() AS l');
  return { oldest: Number(row?.o), latest: Number(row?.l) };
}

const stores: [string, () => Promise<StoreUnderTest>][] = [
  ['embedded (PGlite)', embeddedStore],
  ...(pgUrl ? ([['PostgreSQL server', async () => serverStore(pgUrl, `qs_${unique}_${Math.floor(Math.random() * 1e6)}`)]] as [string, () => Promise<StoreUnderTest>][]) : []),
];

describe.each(stores)('the query functions on %s', (_name, makeStore) => {
  it('active(name, at) equals the participant\'s active contracts at every offset; creates, archives, exercises, lookup_contract, names and offsets', async () => {
    const sandbox = await startSandbox({ seed: 120, synchronizers: 2, maxListElements: 20_000 });
    const store = await makeStore();
    try {
      const alice = sandbox.partyId('Alice');
      const [s0, s1] = sandbox.state.synchronizers.map((s) => s.id) as [string, string];
      const moving = await createIou(sandbox, alice);
      const rid = await reassign(sandbox, alice, 'UnassignCommand', { contractId: moving, source: s0, target: s1 });
      const unassignedAt = sandbox.ledgerEnd();
      await reassign(sandbox, alice, 'AssignCommand', { reassignmentId: rid, source: s0, target: s1 });
      const assignedAt = sandbox.ledgerEnd();
      await ingestToEnd(sandbox, store);
      await ingestToEnd(sandbox, store, ['--shape', 'ledger-effects', '--stream-name', 'effects']);
      await expect(store.query('SELECT latest_offset()', [], null)).rejects.toThrow(/several streams \(default, effects\)/);
      await expect(store.query('SELECT latest_offset()', [], 'nope')).rejects.toThrow(/no stream 'nope'/);

      const { oldest, latest } = await offsets(store);
      expect(oldest).toBe(0);
      expect(latest).toBeGreaterThanOrEqual(assignedAt);
      expect(await expectActiveEverywhere(sandbox, store, oldest, latest)).toBeGreaterThan(store.kind === 'server' ? latest : latest / 5);
      expect(await expectLatestEqualsLives(store, null)).toBeGreaterThan(0);
      expect(await expectLatestEqualsLives(store, 'Iou')).toBeGreaterThan(0);
      // the reassigned contract: inactive between its unassignment and its assignment, active after it
      expect((await storedActiveAt(store, unassignedAt)).has(moving)).toBe(false);
      expect((await storedActiveAt(store, assignedAt)).has(moving)).toBe(true);
      const [movedRow] = await store.query<Record<string, unknown>>('SELECT * FROM lookup_contract($1)', [moving]);
      expect({ ...movedRow, assigned_at_offset: num(movedRow?.['assigned_at_offset']), reassignment_counter: num(movedRow?.['reassignment_counter']) }).toMatchObject({
        contract_id: moving,
        template_fqn: 'ledger-rx-demo:Iou:Iou',
        payload_type: 'template',
        payload: { issuer: alice, owner: alice, currency: 'CHF', amount: '1.0000000000', observers: [] },
        assigned_at_offset: assignedAt,
        synchronizer_id: s1,
        reassignment_counter: 1,
        archived_at_offset: null,
      });

      // names: Entity, Module:Entity, package-name:Module:Entity, as the package-name reference; the same rows
      const ids = async (sql: string, values: readonly unknown[] = []) => (await store.query<{ contract_id: string }>(sql, values)).map((r) => r.contract_id).sort();
      const ious = await ids(`SELECT contract_id FROM active('Iou')`);
      expect(ious.length).toBeGreaterThan(5);
      for (const name of ['Iou:Iou', 'ledger-rx-demo:Iou:Iou', '#ledger-rx-demo:Iou:Iou']) expect(await ids(`SELECT contract_id FROM active($1)`, [name])).toEqual(ious);
      const participantIous = [...(await participantActiveAt(sandbox, latest)).entries()].filter(([, t]) => t.endsWith(':Iou:Iou')).map(([c]) => c).sort();
      expect(ious).toEqual(participantIous);
      // active(name) is active(name, latest_offset())
      expect(await ids(`SELECT contract_id FROM active('Iou', latest_offset())`)).toEqual(ious);
      await expect(store.query(`SELECT * FROM active('NoSuchTemplate')`)).rejects.toThrow(/no template or interface 'NoSuchTemplate' in this store/);
      // another package with an Iou:Iou (an entry of the catalog, as a second DAR's creates would add): the short names become ambiguous
      await store.query(`INSERT INTO ledger_rx_templates VALUES ('default', 'ff00:Iou:Iou', 'other-pkg', 'Iou', 'Iou')`);
      await expect(store.query(`SELECT * FROM active('Iou')`)).rejects.toThrow(/ambiguous name 'Iou': it matches ledger-rx-demo:Iou:Iou, other-pkg:Iou:Iou/);
      await expect(store.query(`SELECT * FROM creates('Iou:Iou')`)).rejects.toThrow(/ambiguous name 'Iou:Iou'/);
      expect(await ids(`SELECT contract_id FROM active('ledger-rx-demo:Iou:Iou')`)).toEqual(ious);
      expect(await store.query(`SELECT * FROM active('other-pkg:Iou:Iou')`)).toEqual([]);
      await store.query(`DELETE FROM ledger_rx_templates WHERE package_name = 'other-pkg'`);

      // offsets the store does not hold are errors, not empty answers
      await expect(store.query('SELECT * FROM active(NULL, $1::bigint)', [latest + 1])).rejects.toThrow(new RegExp(`offset ${latest + 1} is after the latest offset the store holds \\(${latest}\\)`));
      await expect(store.query('SELECT * FROM active(NULL, -1)')).rejects.toThrow(/offset -1 is before the oldest offset the store holds \(0\)/);
      await expect(store.query('SELECT * FROM creates(NULL, 0, $1::bigint)', [latest + 5])).rejects.toThrow(/after the latest offset/);

      // creates, archives and exercises against the sandbox's log
      const log = sandbox.updates({ endInclusive: latest });
      const expectedCreates: string[] = [];
      const expectedArchives: string[] = [];
      const expectedExercises: string[] = [];
      for (const u of log) {
        if (u.kind !== 'Transaction') continue;
        for (const e of u.events) {
          if (e.kind === 'Created' && e.acsDelta) expectedCreates.push(e.contractId);
          if (e.kind === 'Exercised' && e.consuming && e.acsDelta) expectedArchives.push(e.contractId);
          if (e.kind === 'Exercised') expectedExercises.push(`${u.offset}:${e.contractId}`);
        }
      }
      expect(await ids('SELECT contract_id FROM creates()')).toEqual(expectedCreates.sort());
      expect(await ids('SELECT contract_id FROM archives()')).toEqual(expectedArchives.sort());
      const mid = Math.floor(latest / 2);
      const createdInRange = log.filter((u) => u.offset >= 1 && u.offset <= mid && u.kind === 'Transaction').flatMap((u) => (u.kind === 'Transaction' ? u.events : []))
        .filter((e) => e.kind === 'Created' && e.acsDelta).map((e) => e.contractId).sort();
      expect(await ids('SELECT contract_id FROM creates(NULL, 1, $1::bigint)', [mid])).toEqual(createdInRange);
      const archivedRows = await store.query<{ archived_at_offset: unknown; archived_effective_at: unknown }>(`SELECT archived_at_offset, archived_effective_at FROM archives('Iou')`);
      expect(archivedRows.length).toBeGreaterThan(0);
      for (const r of archivedRows) expect(r.archived_effective_at).not.toBeNull();

      // exercises: the ACS-delta stream has none; the ledger-effects stream has every one, by choice or template name
      expect(await store.query('SELECT * FROM exercises()')).toEqual([]);
      const exercised = await store.query<{ exercised_at_offset: unknown; contract_id: string; choice: string }>('SELECT exercised_at_offset, contract_id, choice FROM exercises()', [], 'effects');
      const key = (r: { exercised_at_offset: unknown; contract_id: string }) => `${num(r.exercised_at_offset)}:${r.contract_id}`;
      expect(expectedExercises.length).toBeGreaterThan(0);
      expect(exercised.map(key).sort()).toEqual(expectedExercises.sort());
      const choice = exercised[0]?.choice as string;
      const byChoice = await store.query<{ exercised_at_offset: unknown; contract_id: string }>('SELECT exercised_at_offset, contract_id FROM exercises($1)', [`Iou:${choice}`], 'effects');
      expect(byChoice.map(key).sort()).toEqual(exercised.filter((r) => r.choice === choice).map(key).sort());
      expect((await store.query('SELECT * FROM exercises($1)', [`ledger-rx-demo:Iou:Iou:${choice}`], 'effects')).length).toBe(byChoice.length);
      // the ledger-effects stream answers active() the same way (archives as consuming exercises)
      expect(sorted(new Map((await store.query<{ contract_id: string; template_id: string }>('SELECT contract_id, template_id FROM active()', [], 'effects')).map((r) => [r.contract_id, r.template_id])))).toEqual(
        sorted(await participantActiveAt(sandbox, latest)),
      );

      // nearest_offset: the last update recorded at or before the time
      const some = log[Math.floor(log.length / 2)] as (typeof log)[number];
      const [near] = await store.query<{ n: unknown }>(`SELECT nearest_offset($1::timestamptz) AS n`, [new Date(Date.parse(some.recordTime)).toISOString()]);
      const expectedNear = Math.max(...log.filter((u) => Date.parse(u.recordTime) <= Date.parse(some.recordTime)).map((u) => u.offset));
      expect(Number(near?.n)).toBe(expectedNear);
      await expect(store.query(`SELECT nearest_offset('1970-01-01T00:00:00Z'::timestamptz)`)).rejects.toThrow(/no update recorded at or before/);
    } finally {
      await store.dispose();
      await sandbox.close();
    }
  }, 180_000);

  it('a pruned participant: from the snapshot at the pruning offset on, active(NULL, at) equals the participant\'s set; before it, an error', async () => {
    const sandbox = await startSandbox({ seed: 150, maxListElements: 20_000 });
    const store = await makeStore();
    try {
      const alice = sandbox.partyId('Alice');
      const early = await createIou(sandbox, alice);
      const prunedAt = sandbox.ledgerEnd();
      sandbox.prune(prunedAt);
      // a contract of the snapshot archived after it
      await sandbox.submit({ commands: [{ ExerciseCommand: { templateId: '#ledger-rx-demo:Iou:Iou', contractId: early, choice: 'Archive', choiceArgument: {} } }], commandId: newCommandId('q'), actAs: [alice] });
      const archivedAt = sandbox.ledgerEnd();
      sandbox.startWorkload(30);
      await waitForEnd(sandbox, archivedAt + 15);
      sandbox.stopWorkload();
      await ingestToEnd(sandbox, store);
      const { oldest, latest } = await offsets(store);
      expect(oldest).toBe(prunedAt);
      expect(latest).toBeGreaterThanOrEqual(archivedAt + 15);
      expect(await expectActiveEverywhere(sandbox, store, oldest, latest)).toBeGreaterThan(store.kind === 'server' ? latest - prunedAt : (latest - prunedAt) / 5);
      expect(await expectLatestEqualsLives(store, null)).toBeGreaterThan(0);
      // a snapshot contract archived after the snapshot keeps its history
      const [earlyRow] = await store.query<{ created_at_offset: unknown; archived_at_offset: unknown }>('SELECT created_at_offset, archived_at_offset FROM lookup_contract($1)', [early]);
      expect({ created: num(earlyRow?.created_at_offset), archived: num(earlyRow?.archived_at_offset) }).toEqual({ created: prunedAt, archived: archivedAt });
      expect((await storedActiveAt(store, archivedAt - 1)).has(early)).toBe(true);
      expect((await storedActiveAt(store, archivedAt)).has(early)).toBe(false);
      expect((await store.query('SELECT contract_id FROM archives(NULL, $1::bigint, $1::bigint)', [archivedAt])).map((r) => r['contract_id'])).toEqual([early]);
      await expect(store.query('SELECT * FROM active(NULL, $1::bigint)', [prunedAt - 1])).rejects.toThrow(/before the oldest offset the store holds/);
    } finally {
      await store.dispose();
      await sandbox.close();
    }
  }, 180_000);
});

async function waitForEnd(sandbox: Sandbox, end: number): Promise<void> {
  const { eventually } = await import('../support/eventually.js');
  await eventually(async () => (sandbox.ledgerEnd() >= end ? true : undefined), `ledger end ${end}`, { intervalMs: 20 });
}
