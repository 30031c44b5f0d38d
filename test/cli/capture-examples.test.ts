import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createLedgerClient } from '../../src/client/create-ledger-client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli, startCli, type CliResult } from './support/run-cli.js';

/**
 * Regenerates docs/cli-examples.md: every example is a real command run against the embedded sandbox,
 * with its real output. Run with:
 *   npx tsc -p tsconfig.build.json && LEDGER_RX_CAPTURE_EXAMPLES=1 npx vitest run test/cli/capture-examples.test.ts
 */
const enabled = process.env['LEDGER_RX_CAPTURE_EXAMPLES'] === '1';
const docsPath = fileURLToPath(new URL('../../docs/cli-examples.md', import.meta.url));
const pgUrl = inject('pgUrl');

function shown(args: readonly string[], replacements: Readonly<Record<string, string>>): string {
  const quote = (a: string) => (/^[\w@%+=:,./#-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);
  return `ledger-rx ${args.map((a) => replacements[a] ?? quote(a)).join(' ')}`;
}

function block(language: string, text: string): string {
  return `\`\`\`${language}\n${text.replace(/\n+$/, '')}\n\`\`\``;
}

describe.runIf(enabled && pgUrl)('docs/cli-examples.md', () => {
  it('captures every command with its real output', { timeout: 120_000 }, async () => {
    let sandbox: Sandbox;
    try {
      sandbox = await startSandbox({ seed: 40, port: 7575 });
    } catch {
      sandbox = await startSandbox({ seed: 40 });
    }
    const dir = await mkdtemp(join(tmpdir(), 'ledger-rx-docs-'));
    const url = sandbox.url;
    const replace: Record<string, string> = { [pgUrl as string]: '"$LEDGER_RX_PG_URL"' };
    const parts: string[] = [];
    const section = (title: string, text: string) => parts.push(`## ${title}\n\n${text}`);
    const run = async (args: string[], options: { stdoutOnly?: boolean; input?: string } = {}): Promise<CliResult> => {
      const result = await runCli(args, options.input === undefined ? {} : { input: options.input });
      const out = [`$ ${shown(args, replace)}`, result.stdout.replace(/\n+$/, '')];
      if (!options.stdoutOnly && result.stderr.trim() !== '') out.push(`# stderr:\n${result.stderr.replace(/\n+$/, '')}`);
      out.push(`# exit code ${result.code}`);
      parts.push(block('console', out.filter((l) => l !== '').join('\n')));
      return result;
    };
    try {
      parts.push(
        '# ledger-rx command line: examples',
        `Every example below was run against the embedded sandbox participant (\`startSandbox({ seed: 40 })\`, at ${url}) by ` +
          '`test/cli/capture-examples.test.ts`; the output is what the commands printed (long lines included). Regenerate with\n' +
          '`npx tsc -p tsconfig.build.json && LEDGER_RX_CAPTURE_EXAMPLES=1 npx vitest run test/cli/capture-examples.test.ts`.\n\n' +
          'Data goes to stdout (NDJSON for `tail`), logs (JSON lines, pino layout), errors and `--stats` to stderr. Exit codes: 0 done, ' +
          '1 local failure (file, lock, database), 2 bad usage, 3 server error that cannot be retried, 4 retries exhausted, ' +
          '130 a second SIGINT/SIGTERM (exit at once, without flushing).',
      );

      section('`tail`: the first updates, as NDJSON', 'One element of `POST /v2/updates` per line, exactly as the participant sent it.');
      await run(['tail', '--url', url, '--limit', '2', '--log-level', 'warn']);

      section('`tail --to end --stats`: a bounded read with its summary', 'Only the stderr summary is of interest here, so stdout goes to a file.');
      const statsOut = join(dir, 'all.ndjson');
      const stats = await runCli(['tail', '--url', url, '--to', 'end', '--stats', '--log-level', 'warn', '--out', statsOut]);
      parts.push(block('console', `$ ${shown(['tail', '--url', url, '--to', 'end', '--stats', '--log-level', 'warn', '--out', 'all.ndjson'], replace)}\n# stderr:\n${stats.stderr.trim()}\n# exit code ${stats.code}`));

      section('`tail --descending --limit 3`: the newest three updates', 'Newest first (offsets decrease).');
      const desc = await run(['tail', '--url', url, '--descending', '--limit', '3', '--party', sandbox.partyId('Alice'), '--log-level', 'warn']);
      expect(desc.code).toBe(0);

      section(
        '`tail --checkpoint`: stop, restart, no duplicate and no gap',
        'The first run stops after 5 updates and saves the checkpoint after the lines were flushed; the second resumes after it.',
      );
      const ckpt = join(dir, 'tail.ckpt');
      const ndjson = join(dir, 'updates.ndjson');
      const show = { [ckpt]: 'tail.ckpt', [ndjson]: 'updates.ndjson', ...replace };
      const first = await runCli(['tail', '--url', url, '--limit', '5', '--checkpoint', ckpt, '--out', ndjson, '--log-level', 'warn']);
      const second = await runCli(['tail', '--url', url, '--to', 'end', '--checkpoint', ckpt, '--out', ndjson, '--stats', '--log-level', 'warn']);
      const { readFile } = await import('node:fs/promises');
      const saved = (await readFile(ckpt, 'utf8')).trim();
      const offsets = (await readFile(ndjson, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => (Object.values((JSON.parse(l) as { update: Record<string, { value: { offset: number } }> }).update)[0] as { value: { offset: number } }).value.offset);
      parts.push(
        block(
          'console',
          [
            `$ ${shown(['tail', '--url', url, '--limit', '5', '--checkpoint', ckpt, '--out', ndjson, '--log-level', 'warn'], show)}`,
            `# exit code ${first.code}`,
            `$ ${shown(['tail', '--url', url, '--to', 'end', '--checkpoint', ckpt, '--out', ndjson, '--stats', '--log-level', 'warn'], show)}`,
            `# stderr:\n${second.stderr.trim()}`,
            `# exit code ${second.code}`,
            '$ cat tail.ckpt',
            saved,
            `$ jq -c '.update[].value.offset' updates.ndjson | tr '\\n' ' '`,
            offsets.join(' '),
          ].join('\n'),
        ),
      );

      section('`tail --sandbox` (what `npm start` runs)', 'The embedded sandbox with a live workload (20 transactions/s); `--from end` shows only new updates. Three lines, then SIGTERM.');
      const live = startCli(['tail', '--sandbox', '--from', 'end']);
      await live.waitForLines(3, 15_000);
      live.child.kill('SIGTERM');
      const liveExit = await live.exited;
      parts.push(
        block(
          'console',
          `$ ledger-rx tail --sandbox --from end\n${live.lines.slice(0, 3).join('\n')}\n^C (SIGTERM)\n# stderr:\n${live.stderr().trim()}\n# exit code ${liveExit.code}`,
        ),
      );

      section(
        '`tail`: a pruned start',
        'An explicit `--from` before the pruning offset fails at once with exit code 3 and the offset to restart from ' +
          '(`--from begin`, the default, starts at the pruning offset instead).',
      );
      const pruned = await startSandbox({ seed: 40 });
      const prunedAt = pruned.updates()[20]?.offset ?? 1;
      pruned.prune(prunedAt);
      const prunedResult = await runCli(['tail', '--url', pruned.url, '--from', '0', '--to', 'end']);
      parts.push(block('console', `$ ledger-rx tail --url ${pruned.url} --from 0 --to end\n# stderr:\n${prunedResult.stderr.trim()}\n# exit code ${prunedResult.code}`));
      await pruned.close();

      section(
        '`ingest`: exactly-once loading into PostgreSQL',
        'Migrations run first; each batch is committed together with its checkpoint. The second command shows an idempotent re-run; ' +
          'the tables are then queried (`sql>`: the query, run with pg, and its result).',
      );
      const schema = `docs_${Date.now() % 100000}`;
      await run(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', url, '--to', 'end', '--stats']);
      await run(['ingest', '--pg', pgUrl as string, '--schema', schema, '--url', url, '--to', 'end', '--stats', '--log-level', 'warn']);
      const db = new pg.Pool({ connectionString: pgUrl });
      const table = async (sql: string) => {
        const r = await db.query(sql);
        const cols = r.fields.map((f) => f.name);
        const cell = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v ?? ''));
        const rows = r.rows.map((row: Record<string, unknown>) => cols.map((c) => cell(row[c])));
        const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((row) => (row[i] as string).length)));
        const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ');
        return [`sql> ${sql}`, fmt(cols), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(fmt)].join('\n');
      };
      parts.push(
        block(
          'console',
          [
            await table(`SELECT kind, count(*), min(ledger_offset), max(ledger_offset) FROM ${schema}.updates GROUP BY kind`),
            await table(
              `SELECT (SELECT count(*) FROM ${schema}.created_events) AS created, (SELECT count(*) FROM ${schema}.archived_events) AS archived, (SELECT count(*) FROM ${schema}.active_contracts) AS active`,
            ),
            await table(`SELECT stream_name, ledger_offset, updated_at FROM ${schema}.ledger_rx_checkpoints`),
            await table(`SELECT version, name FROM ${schema}.ledger_rx_migrations`),
          ].join('\n\n'),
        ),
      );
      await db.end();

      section('`vetting list`', 'Every page of `POST /v2/package-vetting/list`, one block per (synchronizer, participant).');
      await run(['vetting', 'list', '--url', url]);

      section('`vetting vet --dry-run` and `vetting unvet --dry-run`', 'A preview: the participant checks the change and shows the would-be state; nothing is written.');
      await run(['vetting', 'vet', 'ledger-rx-demo@1.1.0', '--valid-from', '2027-01-01T00:00:00Z', '--dry-run', '--url', url]);
      await run(['vetting', 'unvet', 'ledger-rx-finance', '--dry-run', '--url', url]);
      await run(['vetting', 'vet', 'no-such-package', '--url', url]);

      const alice = sandbox.partyId('Alice');
      const admin = createLedgerClient({ baseUrl: url });
      await admin.createUser({
        user: { id: 'alice', primaryParty: '', isDeactivated: false, identityProviderId: '' },
        rights: [{ kind: { CanActAs: { value: { party: alice } } } }, { kind: { CanReadAs: { value: { party: alice } } } }],
      });
      await admin.close();
      section('`users update` and `users revoke`', 'Only the fields given are updated (the update mask is built from them).');
      await run(['users', 'update', 'alice', '--primary-party', alice, '--annotation', 'team=blue', '--url', url]);
      await run(['users', 'revoke', 'alice', '--act-as', alice, '--url', url]);
      await run(['users', 'revoke', 'nobody', '--read-as', alice, '--url', url]);

      section('`submit`', 'The commands of a JSON file; the transaction then appears on the update stream.');
      const file = join(dir, 'create-iou.json');
      const commands = {
        actAs: [alice],
        userId: 'alice',
        commandId: 'create-iou-1',
        commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '100.0', observers: [] } } }],
      };
      await writeFile(file, `${JSON.stringify(commands, null, 2)}\n`);
      parts.push(block('console', `$ cat create-iou.json\n${JSON.stringify(commands, null, 2)}`));
      const before = sandbox.ledgerEnd();
      await run(['submit', file, '--url', url].map((a) => a), {});
      parts[parts.length - 1] = (parts[parts.length - 1] as string).replace(file, 'create-iou.json');
      for (let i = 0; i < 50 && sandbox.ledgerEnd() === before; i++) await new Promise((r) => setTimeout(r, 20));
      await run(['tail', '--url', url, '--from', String(before), '--to', 'end', '--party', alice, '--log-level', 'warn']);
      const dave = sandbox.partyId('Dave');
      const rejected = join(dir, 'as-dave.json');
      await writeFile(
        rejected,
        JSON.stringify({
          actAs: [dave],
          userId: 'participant_admin',
          submissionId: 'doc-sub-1',
          commands: [{ CreateCommand: { templateId: '#ledger-rx-demo:Iou:Iou', createArguments: { issuer: dave, owner: dave, currency: 'USD', amount: '1.0', observers: [] } } }],
        }),
      );
      parts.push('A rejected submission (Dave is hosted on another participant): the code, the cause and the correlation id.');
      await run(['submit', rejected, '--url', url]);
      parts[parts.length - 1] = (parts[parts.length - 1] as string).replace(rejected, 'as-dave.json');

      section('Bad usage and `--help`', '');
      await run(['tail', '--url', url, '--from', 'yesterday']);
      await run(['--help']);
      await run(['tail', '--help']);
      await run(['ingest', '--help']);

      await mkdir(fileURLToPath(new URL('../../docs/', import.meta.url)), { recursive: true });
      await writeFile(docsPath, `${parts.join('\n\n')}\n`);
    } finally {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
