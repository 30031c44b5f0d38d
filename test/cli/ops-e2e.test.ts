import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/create-ledger-client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { runCli, startCli } from './support/run-cli.js';

describe('operator commands (spawned CLI)', () => {
  let sandbox: Sandbox;
  let dir: string;
  let alice: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 5 });
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-ops-'));
    alice = sandbox.partyId('Alice');
    const client = createLedgerClient({ baseUrl: sandbox.url });
    await client.createUser({
      user: { id: 'alice', primaryParty: '', isDeactivated: false, identityProviderId: '' },
      rights: [{ kind: { CanActAs: { value: { party: alice } } } }, { kind: { CanReadAs: { value: { party: alice } } } }],
    });
    await client.close();
  });
  afterAll(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('vetting list prints the vetting state of every participant', async () => {
    const result = await runCli(['vetting', 'list', '--url', sandbox.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^synchronizer \S+ {2}participant participant1::\S+ {2}serial \d+$/m);
    expect(result.stdout).toMatch(/^ {2}ledger-rx-demo +1\.1\.0 +[0-9a-f]{12} {2}-∞ \.\. \+∞$/m);
    const json = await runCli(['vetting', 'list', '--url', sandbox.url, '--json', '--package-name-prefix', 'ledger-rx-demo']);
    const states = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { packages: { packageName: string }[] });
    expect(states.length).toBeGreaterThan(0);
    for (const s of states) for (const p of s.packages) expect(p.packageName).toBe('ledger-rx-demo');
  });

  it('vetting unvet / vet --dry-run preview the change without applying it, then apply', async () => {
    const unvet = await runCli(['vetting', 'unvet', 'ledger-rx-finance@1.0.0', '--url', sandbox.url]);
    expect(unvet.code, unvet.stderr).toBe(0);
    expect(unvet.stdout).toMatch(/^unvet on synchronizer \S+, serial 1 → 2$/m);
    expect(unvet.stdout).toMatch(/^ {2}- ledger-rx-finance 1\.0\.0 [0-9a-f]{12}/m);
    const dry = await runCli(['vetting', 'vet', 'ledger-rx-finance@1.0.0', '--valid-from', '2027-01-01T00:00:00Z', '--dry-run', '--url', sandbox.url]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^dry run \(nothing changed\): vet on synchronizer \S+, serial 2 → 3$/m);
    expect(dry.stdout).toMatch(/^ {2}\+ ledger-rx-finance 1\.0\.0 [0-9a-f]{12} {2}2027-01-01T00:00:00(\.000)?Z \.\. \+∞$/m);
    const list = await runCli(['vetting', 'list', '--url', sandbox.url, '--participant', sandbox.state.participantId]);
    expect(list.stdout).not.toContain('ledger-rx-finance');
    const unknown = await runCli(['vetting', 'vet', 'no-such-package', '--url', sandbox.url]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^error: [A-Z_]+: /);
  });

  it('users update sets fields and prints the user; users revoke prints the rights removed', async () => {
    const update = await runCli(['users', 'update', 'alice', '--primary-party', alice, '--annotation', 'team=blue', '--url', sandbox.url]);
    expect(update.code, update.stderr).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ id: 'alice', primaryParty: alice, metadata: { annotations: { team: 'blue' } } });
    const revoke = await runCli(['users', 'revoke', 'alice', '--act-as', alice, '--admin', '--url', sandbox.url]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toBe(`revoked CanActAs ${alice}\n`);
    const again = await runCli(['users', 'revoke', 'alice', '--act-as', alice, '--url', sandbox.url]);
    expect(again.stdout).toBe('(none: the user had none of them)\n');
    const missing = await runCli(['users', 'revoke', 'nobody', '--read-as', alice, '--url', sandbox.url]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('error: USER_NOT_FOUND: ');
    const nothing = await runCli(['users', 'update', 'alice', '--url', sandbox.url]);
    expect(nothing.code).toBe(2);
  });

  it('submit FILE.json submits the commands; errors print the code, the cause and the correlation id', async () => {
    const file = join(dir, 'create.json');
    await writeFile(
      file,
      JSON.stringify({
        actAs: [alice],
        userId: 'participant_admin',
        commandId: 'cli-create-1',
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '10.0', observers: [] } } }],
      }),
    );
    const before = sandbox.ledgerEnd();
    const result = await runCli(['submit', file, '--url', sandbox.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ status: 'accepted', commandId: 'cli-create-1', actAs: [alice] });
    await expect.poll(() => sandbox.updates({ beginExclusive: before }).some((u) => u.kind === 'Transaction' && u.commandId === 'cli-create-1')).toBe(true);

    const dave = sandbox.partyId('Dave'); // hosted on the other participant: this one cannot submit for it
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({
        actAs: [dave],
        userId: 'participant_admin',
        commandId: 'cli-bad-1',
        submissionId: 'sub-42',
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: dave, owner: dave, currency: 'USD', amount: '1.0', observers: [] } } }],
      }),
    );
    const rejected = await runCli(['submit', bad, '--url', sandbox.url]);
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toMatch(/^error: [A-Z_]+: .+\n {2}correlation id: sub-42\n/);

    const notJson = join(dir, 'not.json');
    await writeFile(notJson, '{ nope');
    expect((await runCli(['submit', notJson, '--url', sandbox.url])).code).toBe(2);
    const stdin = await runCli(['submit', '-', '--url', sandbox.url], {
      input: JSON.stringify({ actAs: [alice], userId: 'participant_admin', commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'EUR', amount: '1.0', observers: [] } } }] }),
    });
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(JSON.parse(stdin.stdout).commandId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('submit --wait prints the outcome: committed (0), the same change id again failed as a duplicate (5)', async () => {
    const file = join(dir, 'wait.json');
    const createArguments = { issuer: alice, owner: alice, currency: 'USD', amount: '3.0', observers: [] };
    await writeFile(file, JSON.stringify({ actAs: [alice], userId: 'participant_admin', commandId: 'cli-wait-1', commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments } }] }));
    const committed = await runCli(['submit', file, '--wait', '--url', sandbox.url]);
    expect(committed.code, committed.stderr).toBe(0);
    const outcome = JSON.parse(committed.stdout) as { status: string; updateId: string; completionOffset: number };
    expect(outcome).toMatchObject({ status: 'committed', commandId: 'cli-wait-1' });
    expect(sandbox.updates().find((u) => u.updateId === outcome.updateId)?.offset).toBe(outcome.completionOffset);
    const duplicate = await runCli(['submit', file, '--wait', '--url', sandbox.url]);
    expect(duplicate.code).toBe(5);
    expect(JSON.parse(duplicate.stdout)).toMatchObject({ status: 'failed', commandId: 'cli-wait-1', cantonCode: 'DUPLICATE_COMMAND' });
    expect((await runCli(['submit', file, '--wait', '--timeout', '0', '--url', sandbox.url])).code).toBe(2);
  });

  it('acs prints the active contracts at the ledger end or --at, byte for byte as the participant sends them, or one line each', async () => {
    const before = sandbox.ledgerEnd();
    const ndjson = await runCli(['acs', '--party', alice, '--format', 'ndjson', '--transport', 'page', '--url', sandbox.url]);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    // without --at: the ledger end when it ran (commands submitted earlier in this file may still commit
    // meanwhile, so it is read from what acs reports, then compared with the participant's answer there)
    const reported = /(\d+) entr(?:y|ies) at offset (\d+)\n/.exec(ndjson.stderr);
    expect(reported, ndjson.stderr).not.toBeNull();
    const end = Number(reported?.[2]);
    expect(end).toBeGreaterThanOrEqual(before);
    expect(end).toBeLessThanOrEqual(sandbox.ledgerEnd());
    const raw = await call(sandbox.url, 'POST', '/v2/state/active-contracts', { body: { activeAtOffset: end, eventFormat: { filtersByParty: { [alice]: { cumulative: [] } }, verbose: false } } });
    // The page transport's entries carry no continuation token (the list's do); otherwise the same bytes.
    const withoutToken = (e: unknown) => JSON.stringify({ ...(e as object), streamContinuationToken: '' });
    const expected = (raw.json as unknown[]).map(withoutToken);
    const lines = ndjson.stdout.trimEnd().split('\n');
    expect(lines.map((l) => withoutToken(JSON.parse(l)))).toEqual(expected);
    expect(Number(reported?.[1])).toBe(expected.length);
    const pretty = await runCli(['acs', '--party', alice, '--format', 'pretty', '--at', '1', '--url', sandbox.url]);
    expect(pretty.code, pretty.stderr).toBe(0);
    expect(pretty.stderr).toMatch(/ entr(y|ies) at offset 1\n$/);
    for (const line of pretty.stdout.trimEnd().split('\n').filter((l) => l !== '')) expect(line).toMatch(/^ *\d+ {2}active {4}/);
    const future = await runCli(['acs', '--party', alice, '--at', String(end + 1000), '--url', sandbox.url]);
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('is after the ledger end');
  });

  it('completions tails the completions after --from (NDJSON) until SIGINT, then exits 0', async () => {
    const from = sandbox.ledgerEnd();
    const cli = startCli(['completions', '--party', alice, '--from', String(from), '--format', 'ndjson', '--url', sandbox.url]);
    try {
      const client = createLedgerClient({ baseUrl: sandbox.url });
      const createArguments = { issuer: alice, owner: alice, currency: 'USD', amount: '2.0', observers: [] };
      for (const commandId of ['cli-tail-1', 'cli-tail-2']) {
        await client.submit({ actAs: [alice], userId: 'participant_admin', commandId, commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments } }] });
      }
      await client.close();
      await cli.waitForLines(2);
      const completions = cli.lines.map((l) => JSON.parse(l) as { completionResponse: { Completion?: { value: { commandId: string; offset: number } } } }).filter((e) => e.completionResponse.Completion);
      expect(completions.map((c) => c.completionResponse.Completion?.value.commandId)).toEqual(['cli-tail-1', 'cli-tail-2']);
      expect(completions.every((c) => (c.completionResponse.Completion?.value.offset ?? 0) > from)).toBe(true);
    } finally {
      cli.child.kill('SIGINT');
    }
    expect((await cli.exited).code, cli.stderr()).toBe(0);
  });
});
