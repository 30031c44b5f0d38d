import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUpdateFormat } from '../../src/cli/options/build-update-format.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { firstOrderViolation, offsetOfLine, visibleAcsDeltaOffsets } from './support/ledger-truth.js';
import { cliPath, runCli, startCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

/** The raw elements of `POST /v2/updates` up to `end`, paged by hand (independent of the client). */
async function rawElements(url: string, end: number): Promise<string[]> {
  const out: string[] = [];
  let begin = 0;
  for (;;) {
    const res = await request(`${url}/v2/updates?limit=200`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ beginExclusive: begin, endInclusive: end, updateFormat: buildUpdateFormat({}) }),
    });
    const page = (await res.body.json()) as unknown[];
    for (const e of page) out.push(JSON.stringify(e));
    if (page.length < 200) return out;
    begin = offsetOfLine(out.at(-1) as string);
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

// The runs are in process (the program of `createProgram`: the same flags, defaults and exit codes) unless a
// process is the point: the smoke runs of the built entry (the whole ledger, a usage error, --help, a wrong
// address, `tail --sandbox` as `npm start` runs it), a real SIGTERM, a pipe whose reader does not read, kill -9.
describe('ledger-rx tail', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 400 });
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-tail-e2e-'));
  });
  afterAll(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('--to end writes exactly the ledger: same elements, offsets in order, no duplicate, no gap (a process)', async () => {
    const end = sandbox.ledgerEnd();
    const result = await runCli(['tail', '--url', sandbox.url, '--to', 'end', '--log-level', 'warn']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = lines(result.stdout);
    expect(out.map(offsetOfLine)).toEqual(visibleAcsDeltaOffsets(sandbox, end));
    expect(out).toEqual(await rawElements(sandbox.url, end));
  });

  it('--to OFFSET stops after that offset', async () => {
    const to = visibleAcsDeltaOffsets(sandbox)[40] as number;
    const result = await runInProcess(['tail', '--url', sandbox.url, '--to', String(to), '--log-level', 'warn']);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout).map(offsetOfLine)).toEqual(visibleAcsDeltaOffsets(sandbox, to));
  });

  it('--out /dev/null (a file that cannot be fsynced) exits 0 and counts every update in --stats', async () => {
    const end = sandbox.ledgerEnd();
    const result = await runInProcess(['tail', '--url', sandbox.url, '--to', String(end), '--out', '/dev/null', '--stats', '--log-level', 'warn']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const stats = JSON.parse(result.stderr.trim()) as { count: number; lastOffset: number };
    expect(stats.count).toBe(visibleAcsDeltaOffsets(sandbox, end).length);
    expect(stats.lastOffset).toBe(visibleAcsDeltaOffsets(sandbox, end).at(-1));
  });

  it('--logger MODULE: logs go through the module\'s logger (pino-style calls), none to stderr; a bad module exits 2', async () => {
    const logFile = join(dir, 'logger.jsonl');
    const module = join(dir, 'logger.mjs');
    await writeFile(
      module,
      `import { appendFileSync } from 'node:fs';
export function createLogger({ level }) {
  const at = (name) => (obj, msg) => appendFileSync(${JSON.stringify(logFile)}, JSON.stringify({ level, method: name, msg, ...obj }) + '\\n');
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
`,
    );
    const end = sandbox.ledgerEnd();
    const result = await runInProcess(['tail', '--url', sandbox.url, '--to', String(end), '--logger', module, '--log-level', 'debug']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout).map(offsetOfLine)).toEqual(visibleAcsDeltaOffsets(sandbox, end));
    const logged = lines(await readFile(logFile, 'utf8')).map((l) => JSON.parse(l) as { level: string; method: string; msg?: string });
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((l) => l.level === 'debug')).toBe(true);
    expect(logged.some((l) => l.method === 'debug' && l.msg === 'reading')).toBe(true);

    const missing = await runInProcess(['tail', '--url', sandbox.url, '--to', String(end), '--logger', join(dir, 'nope.mjs')]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/--logger .*nope\.mjs: cannot load the module/);
    const notALogger = join(dir, 'not-a-logger.mjs');
    await writeFile(notALogger, 'export const logger = { info() {} };\n');
    const wrong = await runInProcess(['tail', '--url', sandbox.url, '--to', String(end), '--logger', notALogger]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/must export `logger` or `createLogger/);
  });

  it('--descending --limit N writes the newest N updates, newest first', async () => {
    const result = await runInProcess(['tail', '--url', sandbox.url, '--descending', '--limit', '7', '--log-level', 'warn']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout).map(offsetOfLine)).toEqual(visibleAcsDeltaOffsets(sandbox).slice(-7).reverse());
  });

  it('restarts from --checkpoint FILE: the concatenated output equals the ledger, no duplicate', async () => {
    const checkpoint = join(dir, 'restart.json');
    const out = join(dir, 'restart.ndjson');
    const first = await runInProcess(['tail', '--url', sandbox.url, '--limit', '33', '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn']);
    expect(first.code).toBe(0);
    expect(lines(await readFile(out, 'utf8'))).toHaveLength(33);
    const second = await runInProcess(['tail', '--url', sandbox.url, '--to', 'end', '--checkpoint', checkpoint, '--out', out, '--stats', '--log-level', 'warn']);
    expect(second.code).toBe(0);
    const offsets = lines(await readFile(out, 'utf8')).map(offsetOfLine);
    expect(offsets).toEqual(visibleAcsDeltaOffsets(sandbox));
    expect(JSON.parse(lines(second.stderr).at(-1) as string)).toMatchObject({ count: offsets.length - 33, lastOffset: offsets.at(-1) });
  });

  it('lines past the checkpoint (a kill between saves) are not written again, and the checkpoint catches up with them even when nothing more is read', async () => {
    const checkpoint = join(dir, 'behind.json');
    const out = join(dir, 'behind.ndjson');
    const first = await runInProcess(['tail', '--url', sandbox.url, '--limit', '20', '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn']);
    expect(first.code).toBe(0);
    const savedAt = (JSON.parse(await readFile(checkpoint, 'utf8')) as { offset: number }).offset;
    // what a run killed after writing five more lines and before saving its checkpoint leaves behind
    const ahead = await runInProcess(['tail', '--url', sandbox.url, '--from', String(savedAt), '--limit', '5', '--log-level', 'warn']);
    expect(ahead.code).toBe(0);
    await writeFile(out, ahead.stdout, { flag: 'a' });
    const written = lines(await readFile(out, 'utf8')).map(offsetOfLine);
    const lastWritten = written.at(-1) as number;
    expect(written).toHaveLength(25);
    expect(lastWritten).toBeGreaterThan(savedAt);
    const again = await runInProcess(['tail', '--url', sandbox.url, '--to', String(lastWritten), '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn']);
    expect(again.code, again.stderr).toBe(0);
    expect(lines(await readFile(out, 'utf8')).map(offsetOfLine)).toEqual(written);
    expect((JSON.parse(await readFile(checkpoint, 'utf8')) as { offset: number }).offset).toBe(lastWritten);
  });

  it('SIGTERM mid-tail flushes and exits 0; a restart continues without duplicate or gap', async () => {
    const live = await startSandbox({ seed: 50, generate: 30 });
    try {
      const checkpoint = join(dir, 'term.json');
      const out = join(dir, 'term.ndjson');
      const cli = startCli(['tail', '--url', live.url, '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn']);
      const count = async () => lines(await readFile(out, 'utf8').catch(() => '')).length;
      await waitFor(async () => (await count()) > 60);
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
      const beforeRestart = lines(await readFile(out, 'utf8')).map(offsetOfLine);
      expect(JSON.parse(await readFile(checkpoint, 'utf8')).offset).toBeGreaterThanOrEqual(beforeRestart.at(-1) as number);
      await new Promise((r) => setTimeout(r, 200)); // the ledger keeps growing meanwhile
      live.stopWorkload();
      const end = live.ledgerEnd();
      const restart = await runInProcess(['tail', '--url', live.url, '--to', 'end', '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn']);
      expect(restart.code).toBe(0);
      const all = lines(await readFile(out, 'utf8')).map(offsetOfLine);
      expect(firstOrderViolation(all)).toBe(-1);
      expect(all).toEqual(visibleAcsDeltaOffsets(live, end));
    } finally {
      await live.close();
    }
  });

  it('a pruned --from exits 3 and prints the earliest available offset', async () => {
    const pruned = await startSandbox({ seed: 100 });
    try {
      const at = visibleAcsDeltaOffsets(pruned)[30] as number;
      pruned.prune(at);
      const result = await runInProcess(['tail', '--url', pruned.url, '--from', '0', '--to', 'end', '--log-level', 'warn']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('PARTICIPANT_PRUNED_DATA_ACCESSED');
      expect(result.stderr).toContain(`earliest available offset: ${at}`);
      expect(result.stdout).toBe('');
      const fromEarliest = await runInProcess(['tail', '--url', pruned.url, '--from', String(at), '--to', 'end', '--log-level', 'warn']);
      expect(fromEarliest.code).toBe(0);
      expect(lines(fromEarliest.stdout).map(offsetOfLine)).toEqual(visibleAcsDeltaOffsets(pruned).filter((o) => o > at));
    } finally {
      await pruned.close();
    }
  });

  it('a pruned participant: --from begin (the default) and --descending read what it still has', async () => {
    const pruned = await startSandbox({ seed: 100 });
    try {
      const at = visibleAcsDeltaOffsets(pruned)[30] as number;
      pruned.prune(at);
      const left = visibleAcsDeltaOffsets(pruned).filter((o) => o > at);
      const [ascending, newest, descending] = await Promise.all([
        runInProcess(['tail', '--url', pruned.url, '--to', 'end', '--log-level', 'warn']),
        runInProcess(['tail', '--url', pruned.url, '--descending', '--limit', '5', '--log-level', 'warn']),
        runInProcess(['tail', '--url', pruned.url, '--descending', '--log-level', 'warn']),
      ]);
      expect(ascending.code, ascending.stderr).toBe(0);
      expect(lines(ascending.stdout).map(offsetOfLine)).toEqual(left);
      expect(newest.code, newest.stderr).toBe(0);
      expect(lines(newest.stdout).map(offsetOfLine)).toEqual(left.slice(-5).reverse());
      expect(descending.code, descending.stderr).toBe(0);
      expect(lines(descending.stdout).map(offsetOfLine)).toEqual([...left].reverse());
    } finally {
      await pruned.close();
    }
  });

  it('--from after the ledger end, or --descending --to after it, exits 2 at once naming both offsets', async () => {
    const end = sandbox.ledgerEnd();
    const [from, descending] = await Promise.all([
      runInProcess(['tail', '--url', sandbox.url, '--from', String(end + 1000), '--log-level', 'warn']),
      runInProcess(['tail', '--url', sandbox.url, '--descending', '--to', String(end + 1000), '--log-level', 'warn']),
    ]);
    expect(from.code, from.stderr).toBe(2);
    expect(from.stderr).toContain(`--from ${end + 1000} is after the ledger end (${end})`);
    expect(descending.code, descending.stderr).toBe(2);
    expect(descending.stderr).toContain(`--to ${end + 1000} is after the ledger end (${end})`);
    expect(from.stdout + descending.stdout).toBe('');
    // "at once": refused before the read, not after the participant's retryable refusal outlasted the retries
    expect(from.stderr + descending.stderr).not.toContain('retrying');
  });

  it('--checkpoint where it cannot be saved exits 2 before reading anything', async () => {
    const out = join(dir, 'unsaved.ndjson');
    for (const checkpoint of [join(dir, 'no-such-dir', 'c.json'), dir]) {
      const result = await runInProcess(['tail', '--url', sandbox.url, '--to', 'end', '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`--checkpoint ${checkpoint}: `);
      await expect(readFile(out)).rejects.toMatchObject({ code: 'ENOENT' });
    }
    expect((await readdir(dir)).filter((f) => f.includes('probe'))).toEqual([]);
  });

  it('SIGTERM while the reader of the pipe is not reading: the checkpoint covers the last line; a restart repeats nothing', async () => {
    const checkpoint = join(dir, 'stalled.json');
    const child = spawn(process.execPath, [cliPath, 'tail', '--url', sandbox.url, '--checkpoint', checkpoint, '--log-level', 'debug'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // The read has started (so the signal handlers are in place, however slow the start-up under load) ...
    await waitFor(async () => stderr.includes('"msg":"reading"'));
    await new Promise((r) => setTimeout(r, 1_000)); // ... and nobody reads stdout: the pipe is full, the tail waits for it to drain
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d)); // the reader wakes up
    expect(await exited, stderr).toBe(0);
    const first = lines(text).map(offsetOfLine);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(visibleAcsDeltaOffsets(sandbox).length); // it really was stopped mid-way
    expect(JSON.parse(await readFile(checkpoint, 'utf8')).offset).toBe(first.at(-1));
    const restart = await runInProcess(['tail', '--url', sandbox.url, '--to', 'end', '--checkpoint', checkpoint, '--log-level', 'warn']);
    expect(restart.code, restart.stderr).toBe(0);
    expect([...first, ...lines(restart.stdout).map(offsetOfLine)]).toEqual(visibleAcsDeltaOffsets(sandbox));
  });

  it('kill -9 with --out FILE between two checkpoint saves: the restart resumes after the last line written, no duplicate', async () => {
    const live = await startSandbox({ seed: 50, generate: 100 });
    try {
      const checkpoint = join(dir, 'kill9.json');
      const out = join(dir, 'kill9.ndjson');
      // no save before the kill: the output file is the only record of what was written
      const cli = startCli(['tail', '--url', live.url, '--checkpoint', checkpoint, '--out', out, '--checkpoint-every', '1000000', '--checkpoint-every-ms', '0', '--log-level', 'warn']);
      const count = async () => lines(await readFile(out, 'utf8').catch(() => '')).length;
      await waitFor(async () => (await count()) > 80);
      cli.child.kill('SIGKILL');
      expect((await cli.exited).signal).toBe('SIGKILL');
      await expect(readFile(checkpoint, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      live.stopWorkload();
      const end = live.ledgerEnd();
      const restart = await runInProcess(['tail', '--url', live.url, '--to', 'end', '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn']);
      expect(restart.code, restart.stderr).toBe(0);
      expect(lines(await readFile(out, 'utf8')).map(offsetOfLine)).toEqual(visibleAcsDeltaOffsets(live, end));
    } finally {
      await live.close();
    }
  });

  it('bad usage exits 2 with a message (a missing command also as a process)', async () => {
    const cases: string[][] = [
      ['tail', '--url', sandbox.url, '--from', 'yesterday'],
      ['tail'],
      ['tail', '--url', sandbox.url, '--sandbox'],
      ['tail', '--url', sandbox.url, '--template', 'd4b59589f45ecbe7176c925c390ab6b3108539caf7ff4b8bfc7dbdf7b66ce122:Iou:Iou'],
      ['tail', '--url', sandbox.url, '--no-such-flag'],
      ['tail', '--url', sandbox.url, '--shape', 'tree'],
      ['tail', '--url', sandbox.url, '--descending', '--checkpoint', 'x.json'],
      ['nonsense'],
      [], // a missing subcommand is bad usage, not a request for help
      ['vetting'],
      ['users'],
    ];
    const results = await Promise.all([...cases.map((args) => runInProcess(args)), runCli([])]);
    cases.push([]);
    results.forEach((r, i) => {
      expect(r.code, `${cases[i]?.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/error/);
      expect(r.stdout).toBe('');
    });
  });

  it('a wrong address fails at start-up within seconds: one line, exit 4 (the process smoke test of the in-process checks)', async () => {
    const port = await closedPort();
    const result = await runCli(['tail', '--url', `http://127.0.0.1:${port}`, '--to', 'end']);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^error: cannot reach the participant at http://127.0.0.1:${port}: connection refused \\(\\d+ attempts in 5\\.\\d s\\); check --url`))]);
  });

  it('--help documents the flags and the exit codes (the program\'s help also as a process)', async () => {
    const result = await runInProcess(['tail', '--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--url', '--token-file', '--sandbox', '--party', '--any-party', '--template', '--interface', '--shape', '--reassignments', '--topology', '--from', '--to', '--descending', '--limit', '--page-limit', '--checkpoint', '--checkpoint-pg', '--stream-name', '--out', '--stats', '--log-level']) {
      expect(result.stdout).toContain(flag);
    }
    expect(result.stdout).toContain('Exit codes:');
    expect(result.stdout).toMatch(/stdout +at least once across kill -9/);
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/tail[\s\S]*ingest[\s\S]*vetting[\s\S]*users[\s\S]*submit/);
    for (const args of [['help'], ['vetting', '--help'], ['help', 'users']]) expect((await runInProcess(args)).code, args.join(' ')).toBe(0);
    const inProcess = await runInProcess(['--help']);
    expect(inProcess).toEqual({ ...top, signal: undefined, code: 0 });
  });

  it('--help documents every exit code: 1 for a local failure, 130 for a second signal', async () => {
    for (const args of [['--help'], ['tail', '--help'], ['ingest', '--help']]) {
      const { stdout } = await runInProcess(args);
      expect(stdout).toMatch(/^ {2}1 +local failure \(file, lock, database\)/m);
      expect(stdout).toMatch(/^ {2}130 +a second SIGINT\/SIGTERM/m);
      for (const code of ['0', '2', '3', '4']) expect(stdout).toMatch(new RegExp(`^ {2}${code} +\\S`, 'm'));
    }
  });

  it('`tail --sandbox` (npm start) prints live NDJSON lines within seconds, and stops on SIGTERM', async () => {
    const cli = startCli(['tail', '--sandbox', '--from', 'end', '--log-level', 'warn']);
    await cli.waitForLines(4, 10_000);
    cli.child.kill('SIGTERM');
    const { code } = await cli.exited;
    expect(code).toBe(0);
    const offsets = cli.lines.map(offsetOfLine);
    expect(firstOrderViolation(offsets)).toBe(-1);
    expect(cli.stderr()).not.toMatch(/"level":50/);
  });
});
