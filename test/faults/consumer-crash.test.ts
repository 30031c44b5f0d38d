import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { mulberry32 } from '../support/fault-proxy.js';
import { duplicates, elementOffset, expectedOffsets, firstDisorder, reportFigures } from '../support/ledger-oracle.js';
import { runInProcess } from '../cli/support/run-in-process.js';
import { spawnCli } from '../support/spawn-cli.js';

/**
 * Consumer crashes: `ledger-rx tail --checkpoint FILE` killed with SIGKILL at random moments (while catching
 * up and while tailing a growing ledger), then restarted.
 *
 * - To stdout, delivery across a kill is at-least-once: lines written after the last saved checkpoint may
 *   be written again by the next run, but nothing the checkpoint covers is, and after dedup-by-offset the
 *   concatenated output equals the ledger.
 * - To `--out FILE`, it is exactly once: the restart resumes after the greater of the checkpoint and the
 *   file's last complete line (a torn one is cut off), so the file equals the ledger with no duplicate at
 *   all, no dedup needed.
 *
 * (`ledger-rx ingest --pg` under the same kills is covered by the CLI suite: test/cli/ingest-e2e.test.ts,
 * "is exactly-once across kill -9 at random moments while the ledger grows".)
 */

const SEED = Number(process.env['LEDGER_RX_CRASH_SEED'] ?? 4242);
const view = { parties: 'any', shape: 'TRANSACTION_SHAPE_ACS_DELTA' } as const;

let sandbox: Sandbox;
let dir: string;
const figures = { kills: 0, killedWithOutput: 0, killedAfterWaitingForOutput: 0, lines: 0, repeatedLines: 0, lost: 0, duplicatedAfterDedup: 0 };
const fileFigures = { kills: 0, killedWithOutput: 0, linesAtKills: 0, killedBetweenSaves: 0, lines: 0 };

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 600, generate: 120, checkpointIntervalMs: 200 });
  dir = await mkdtemp(join(tmpdir(), 'ledger-rx-crash-'));
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
  reportFigures('consumer-crash', { seed: SEED, ...figures });
  reportFigures('consumer-crash --out FILE', { seed: SEED, ...fileFigures });
});

async function checkpointOffset(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as { offset: number }).offset;
}

describe('ledger-rx tail --checkpoint under SIGKILL', () => {
  it('the concatenated output equals the ledger after dedup-by-offset; repeats are only of offsets after the checkpoint at kill time', async () => {
    const random = mulberry32(SEED);
    const checkpoint = join(dir, 'tail.ckpt');
    const runs: { lines: string[]; startCheckpoint: number | undefined; killCheckpoint: number | undefined; killed: boolean }[] = [];
    const common = ['tail', '--url', sandbox.url, '--checkpoint', checkpoint, '--log-level', 'warn', '--long-poll-ms', '300'];

    for (let round = 0; round < 7; round++) {
      const startCheckpoint = await checkpointOffset(checkpoint);
      const every = String(1 + Math.floor(random() * 60));
      const everyMs = String(50 + Math.floor(random() * 400));
      const pageLimit = String(5 + Math.floor(random() * 200));
      const cli = spawnCli([...common, '--checkpoint-every', every, '--checkpoint-every-ms', everyMs, '--page-limit', pageLimit]);
      if (random() < 0.5) {
        await new Promise((r) => setTimeout(r, 150 + Math.floor(random() * 900)));
      } else {
        figures.killedAfterWaitingForOutput++;
        await cli.waitForLines(1 + Math.floor(random() * 400));
        await new Promise((r) => setTimeout(r, Math.floor(random() * 30)));
        expect(cli.lines().length, `round ${round}: the tail wrote before the kill; ${cli.stderr()}`).toBeGreaterThan(0);
      }
      cli.child.kill('SIGKILL');
      const { signal } = await cli.exited;
      expect(signal, cli.stderr()).toBe('SIGKILL');
      figures.kills++;
      const lines = cli.lines(); // a partial last line of a killed writer was not delivered
      if (lines.length > 0) figures.killedWithOutput++;
      runs.push({ lines, startCheckpoint, killCheckpoint: await checkpointOffset(checkpoint), killed: true });
    }

    sandbox.stopWorkload();
    const end = sandbox.ledgerEnd();
    const startCheckpoint = await checkpointOffset(checkpoint);
    const final = await runInProcess([...common, '--to', String(end)]); // the killed runs are processes; the last needs none
    expect(final.code, final.stderr).toBe(0);
    const finalLines = final.stdout.split('\n').filter((l) => l !== '');
    runs.push({ lines: finalLines, startCheckpoint, killCheckpoint: await checkpointOffset(checkpoint), killed: false });

    const seen = new Map<number, string>();
    const deduped: number[] = [];
    for (const [r, run] of runs.entries()) {
      const offsets = run.lines.map((line) => {
        const offset = elementOffset(JSON.parse(line));
        expect(offset, `run ${r}: every complete line is an update element`).toBeTypeOf('number');
        return offset as number;
      });
      figures.lines += offsets.length;
      expect(firstDisorder(offsets), `run ${r}: offsets strictly increase`).toBe(-1);
      // the library drops what was delivered before the checkpoint it resumed from
      if (run.startCheckpoint !== undefined && offsets.length > 0) expect(offsets[0], `run ${r} resumed from ${run.startCheckpoint}`).toBeGreaterThan(run.startCheckpoint);
      for (const [i, offset] of offsets.entries()) {
        const before = seen.get(offset);
        if (before === undefined) {
          seen.set(offset, run.lines[i] as string);
          deduped.push(offset);
          continue;
        }
        figures.repeatedLines++;
        expect(run.lines[i], `a repeated line is the same element (offset ${offset})`).toBe(before);
        // a repeat is only of an offset after the checkpoint saved when the previous run was killed
        const previous = runs[r - 1];
        expect(previous?.killed).toBe(true);
        expect(offset).toBeGreaterThan(previous?.killCheckpoint ?? 0);
      }
    }

    const expected = expectedOffsets(sandbox, view, { endInclusive: end });
    const missing = expected.filter((o) => !seen.has(o));
    figures.lost += missing.length;
    figures.duplicatedAfterDedup += duplicates(deduped).length;
    expect({ missing: missing.slice(0, 10), extra: deduped.filter((o) => !expected.includes(o)).slice(0, 10) }, `seed ${SEED}`).toEqual({ missing: [], extra: [] });
    expect(deduped).toEqual(expected);
    expect(await checkpointOffset(checkpoint)).toBeGreaterThanOrEqual(expected.at(-1) as number);
    expect(figures.killedAfterWaitingForOutput).toBeGreaterThanOrEqual(2); // some kills really hit a running tail
    // some kill landed between two checkpoint saves, so a restart really had to repeat lines (the
    // at-least-once path of stdout was exercised, and every repeat was checked above)
    expect(figures.repeatedLines).toBeGreaterThan(0);
  }, 60_000);
});

describe('ledger-rx tail --checkpoint --out FILE under SIGKILL', () => {
  it('the file equals the ledger: no gap and no duplicate at all, without dedup', async () => {
    const live = await startSandbox({ seed: 700, generate: 120, checkpointIntervalMs: 200 });
    try {
      const random = mulberry32(SEED + 1);
      const checkpoint = join(dir, 'file.ckpt');
      const out = join(dir, 'file.ndjson');
      const common = ['tail', '--url', live.url, '--checkpoint', checkpoint, '--out', out, '--log-level', 'warn', '--long-poll-ms', '300'];
      const fileLines = async () => (await readFile(out, 'utf8').catch(() => '')).split('\n').slice(0, -1);

      for (let round = 0; round < 7; round++) {
        const every = String(1 + Math.floor(random() * 60));
        const everyMs = String(50 + Math.floor(random() * 400));
        const pageLimit = String(5 + Math.floor(random() * 200));
        const before = (await fileLines()).length;
        const cli = spawnCli([...common, '--checkpoint-every', every, '--checkpoint-every-ms', everyMs, '--page-limit', pageLimit]);
        if (random() < 0.5) {
          await new Promise((r) => setTimeout(r, 150 + Math.floor(random() * 900)));
        } else {
          const want = before + 1 + Math.floor(random() * 400);
          const deadline = Date.now() + 15_000;
          while ((await fileLines()).length < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
          await new Promise((r) => setTimeout(r, Math.floor(random() * 30)));
        }
        cli.child.kill('SIGKILL');
        const { signal } = await cli.exited;
        expect(signal, cli.stderr()).toBe('SIGKILL');
        fileFigures.kills++;
        const lines = await fileLines();
        if (lines.length > before) fileFigures.killedWithOutput++;
        fileFigures.linesAtKills = lines.length;
        const last = lines.length > 0 ? elementOffset(JSON.parse(lines.at(-1) as string)) : undefined;
        if (last !== undefined && last > ((await checkpointOffset(checkpoint)) ?? 0)) fileFigures.killedBetweenSaves++;
      }

      live.stopWorkload();
      const end = live.ledgerEnd();
      const final = await runInProcess([...common, '--to', String(end)]); // the killed runs are processes; the last needs none
      expect(final.code, final.stderr).toBe(0);
      expect(final.stdout).toBe('');

      const text = await readFile(out, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const offsets = text
        .split('\n')
        .slice(0, -1)
        .map((line) => elementOffset(JSON.parse(line)) as number);
      fileFigures.lines = offsets.length;
      expect(duplicates(offsets), `seed ${SEED}: no line is written twice`).toEqual([]);
      expect(firstDisorder(offsets), `seed ${SEED}`).toBe(-1);
      expect(offsets).toEqual(expectedOffsets(live, view, { endInclusive: end }));
      expect(await checkpointOffset(checkpoint)).toBeGreaterThanOrEqual(offsets.at(-1) as number);
      expect(fileFigures.killedWithOutput).toBeGreaterThanOrEqual(2); // some kills really hit a running tail
    } finally {
      await live.close();
    }
  }, 60_000);
});
