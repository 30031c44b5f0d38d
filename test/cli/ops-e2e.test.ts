import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../../src/client/create-ledger-client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../support/sandbox-http.js';
import { runAcs } from '../../src/cli/acs/run-acs.js';
import type { SourceOptions } from '../../src/cli/options/source-options.js';
import { parsePackageRef } from '../../src/cli/ops/parse-package-ref.js';
import { runSubmit } from '../../src/cli/ops/run-submit.js';
import { runUsersRevoke } from '../../src/cli/ops/run-users-revoke.js';
import { runUsersUpdate } from '../../src/cli/ops/run-users-update.js';
import { runVettingChange } from '../../src/cli/ops/run-vetting-change.js';
import { runVettingList } from '../../src/cli/ops/run-vetting-list.js';
import type { ExitCode } from '../../src/cli/process/exit-code.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { captureIo, type CapturedIo } from './support/capture-io.js';
import { runCli, startCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

/** Runs a command's core in this process (what needs no process); the result as `runCli` gives it. */
async function inProcess(run: (io: CapturedIo) => Promise<ExitCode>): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo();
  const code = await run(io);
  return { code, stdout: io.out(), stderr: io.err() };
}

// One spawned process per command (vetting, users, submit, acs, completions) checks the command line itself;
// the rest of each command's behaviour runs its core in process, which needs no process.
describe('operator commands', () => {
  let source: SourceOptions;
  let sandbox: Sandbox;
  let dir: string;
  let alice: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 5 });
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-ops-'));
    alice = sandbox.partyId('Alice');
    source = { url: sandbox.url };
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
    const json = await inProcess((io) => runVettingList({ source, json: true, packageNamePrefixes: ['ledger-rx-demo'] }, io));
    const states = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { packages: { packageName: string }[] });
    expect(states.length).toBeGreaterThan(0);
    for (const s of states) for (const p of s.packages) expect(p.packageName).toBe('ledger-rx-demo');
  });

  it('vetting unvet / vet --dry-run preview the change without applying it, then apply', async () => {
    const finance = [parsePackageRef('ledger-rx-finance@1.0.0')];
    const unvet = await inProcess((io) => runVettingChange({ source, operation: 'unvet', packages: finance }, io));
    expect(unvet.code, unvet.stderr).toBe(0);
    expect(unvet.stdout).toMatch(/^unvet on synchronizer \S+, serial 1 → 2$/m);
    expect(unvet.stdout).toMatch(/^ {2}- ledger-rx-finance 1\.0\.0 [0-9a-f]{12}/m);
    const dry = await inProcess((io) => runVettingChange({ source, operation: 'vet', packages: finance, validFrom: '2027-01-01T00:00:00Z', dryRun: true }, io));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^dry run \(nothing changed\): vet on synchronizer \S+, serial 2 → 3$/m);
    expect(dry.stdout).toMatch(/^ {2}\+ ledger-rx-finance 1\.0\.0 [0-9a-f]{12} {2}2027-01-01T00:00:00(\.000)?Z \.\. \+∞$/m);
    const list = await inProcess((io) => runVettingList({ source, participantIds: [sandbox.state.participantId] }, io));
    expect(list.stdout).not.toContain('ledger-rx-finance');
    const unknown = await inProcess((io) => runVettingChange({ source, operation: 'vet', packages: [parsePackageRef('no-such-package')] }, io));
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^error: [A-Z_]+: /);
  });

  it('users update sets fields and prints the user; users revoke prints the rights removed', async () => {
    const update = await runCli(['users', 'update', 'alice', '--primary-party', alice, '--annotation', 'team=blue', '--url', sandbox.url]);
    expect(update.code, update.stderr).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ id: 'alice', primaryParty: alice, metadata: { annotations: { team: 'blue' } } });
    const revoke = await inProcess((io) => runUsersRevoke({ source, userId: 'alice', actAs: [alice], participantAdmin: true }, io));
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toBe(`revoked CanActAs ${alice}\n`);
    const again = await inProcess((io) => runUsersRevoke({ source, userId: 'alice', actAs: [alice] }, io));
    expect(again.stdout).toBe('(none: the user had none of them)\n');
    const missing = await inProcess((io) => runUsersRevoke({ source, userId: 'nobody', readAs: [alice] }, io));
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('error: USER_NOT_FOUND: ');
    const nothing = await inProcess((io) => runUsersUpdate({ source, userId: 'alice' }, io));
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
    const rejected = await inProcess((io) => runSubmit({ source, file: bad }, io));
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toMatch(/^error: [A-Z_]+: .+\n {2}correlation id: sub-42\n/);

    const notJson = join(dir, 'not.json');
    await writeFile(notJson, '{ nope');
    expect((await inProcess((io) => runSubmit({ source, file: notJson }, io))).code).toBe(2);
    const input = JSON.stringify({ actAs: [alice], userId: 'participant_admin', commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'EUR', amount: '1.0', observers: [] } } }] });
    const stdin = await inProcess((io) => runSubmit({ source, file: '-' }, io, Readable.from([input])));
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(JSON.parse(stdin.stdout).commandId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('submit --wait prints the outcome: committed (0), the same change id again failed as a duplicate (5)', async () => {
    const file = join(dir, 'wait.json');
    const createArguments = { issuer: alice, owner: alice, currency: 'USD', amount: '3.0', observers: [] };
    await writeFile(file, JSON.stringify({ actAs: [alice], userId: 'participant_admin', commandId: 'cli-wait-1', commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments } }] }));
    const committed = await inProcess((io) => runSubmit({ source, file, wait: true }, io));
    expect(committed.code, committed.stderr).toBe(0);
    const outcome = JSON.parse(committed.stdout) as { status: string; updateId: string; completionOffset: number };
    expect(outcome).toMatchObject({ status: 'committed', commandId: 'cli-wait-1' });
    expect(sandbox.updates().find((u) => u.updateId === outcome.updateId)?.offset).toBe(outcome.completionOffset);
    const duplicate = await inProcess((io) => runSubmit({ source, file, wait: true }, io));
    expect(duplicate.code).toBe(5);
    expect(JSON.parse(duplicate.stdout)).toMatchObject({ status: 'failed', commandId: 'cli-wait-1', cantonCode: 'DUPLICATE_COMMAND' });
    expect((await runInProcess(['submit', file, '--wait', '--timeout', '0', '--url', sandbox.url])).code).toBe(2);
  });

  it('acs prints the active contracts at the ledger end or --at, byte for byte as the participant sends them, or one line each', async () => {
    const before = sandbox.ledgerEnd();
    const ndjson = await inProcess((io) => runAcs({ source, filter: { parties: [alice] }, format: 'ndjson', transport: 'page' }, io));
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
    const pretty = await runCli(['acs', '--party', alice, '--format', 'pretty', '--at', String(end), '--url', sandbox.url]);
    expect(pretty.code, pretty.stderr).toBe(0);
    expect(pretty.stderr).toMatch(new RegExp(` entr(y|ies) at offset ${end}\n$`));
    const rows = pretty.stdout.trimEnd().split('\n').filter((l) => l !== '');
    expect(rows.length).toBeGreaterThan(0);
    for (const line of rows) expect(line).toMatch(/^ *\d+ {2}active {2}#[0-9a-f]{6}…[0-9a-f]{4} {2}ledger-rx-demo:\S+ Alice \{/);
    const future = await inProcess((io) => runAcs({ source, filter: { parties: [alice] }, at: end + 1000 }, io));
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('is after the ledger end');
  });

  it('acs logs a warning per retry of its start-up (here two 503s of the ledger end), then prints the snapshot', async () => {
    const proxy = await startFaultProxy({ target: sandbox.url });
    try {
      const end = sandbox.ledgerEnd();
      proxy.schedule([{ kind: 'status', status: 503 }, { kind: 'status', status: 503 }], { match: (_method, path) => path.startsWith('/v2/state/ledger-end') });
      const retried = await inProcess((io) => runAcs({ source: { url: proxy.url }, filter: { parties: [alice] }, at: end, format: 'ndjson', transport: 'page' }, io));
      expect(retried.code, retried.stderr).toBe(0);
      expect(proxy.applied()).toBe(2);
      const logged = retried.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logged).toHaveLength(2);
      expect(logged.map((r) => [r['level'], r['msg'], r['attempt']])).toEqual([
        [40, 'request failed; retrying', 1],
        [40, 'request failed; retrying', 2],
      ]);
      expect(retried.stderr).toMatch(new RegExp(`\\n\\d+ entr(y|ies) at offset ${end}\n$`));
      const direct = await inProcess((io) => runAcs({ source, filter: { parties: [alice] }, at: end, format: 'ndjson', transport: 'page' }, io));
      expect(retried.stdout).toBe(direct.stdout);
      expect(direct.stderr).not.toContain('retrying');
    } finally {
      await proxy.close();
    }
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
