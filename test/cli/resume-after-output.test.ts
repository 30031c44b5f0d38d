import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, from } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastLineOffset } from '../../src/cli/output/last-line-offset.js';
import { readLastLine } from '../../src/cli/output/read-last-line.js';
import { resumeAfterOutput } from '../../src/cli/checkpoint/resume-after-output.js';
import { MemoryCheckpointStore } from '../../src/checkpoints/memory-checkpoint-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-resume-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (offset: number) => JSON.stringify({ update: { Transaction: { value: { updateId: `u${offset}`, offset, events: [] } } } });

describe('readLastLine', () => {
  it('returns the last complete line, skipping a torn one, across read chunks', async () => {
    const path = join(dir, 'out.ndjson');
    writeFileSync(path, `${line(1)}\n${line(2)}\n`);
    expect(await readLastLine(path)).toBe(line(2));
    writeFileSync(path, `${line(1)}\n${line(2)}\n{"upd`);
    expect(await readLastLine(path)).toBe(line(2));
    const big = 'x'.repeat(200_000);
    writeFileSync(path, `a\n${big}\n${'y'.repeat(100_000)}`);
    expect(await readLastLine(path)).toBe(big);
    writeFileSync(path, `${big}\n`);
    expect(await readLastLine(path)).toBe(big);
  });

  it('is undefined for a missing or empty file, one without a newline, and a special file', async () => {
    expect(await readLastLine(join(dir, 'missing'))).toBeUndefined();
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    expect(await readLastLine(empty)).toBeUndefined();
    const torn = join(dir, 'torn');
    writeFileSync(torn, '{"upd');
    expect(await readLastLine(torn)).toBeUndefined();
    expect(await readLastLine('/dev/null')).toBeUndefined();
  });
});

describe('lastLineOffset', () => {
  it("reads the offset of the output's last complete line", async () => {
    const path = join(dir, 'out.ndjson');
    writeFileSync(path, `${line(3)}\n${line(17)}\n`);
    expect(await lastLineOffset(path)).toBe(17);
    const checkpoint = JSON.stringify({ update: { OffsetCheckpoint: { value: { offset: 21, synchronizerTimes: [] } } } });
    writeFileSync(path, `${line(3)}\n${checkpoint}\n`);
    expect(await lastLineOffset(path)).toBe(21);
    expect(await lastLineOffset(join(dir, 'missing'))).toBeUndefined();
  });

  it('refuses to guess when the last line is not JSON', async () => {
    const path = join(dir, 'other.txt');
    writeFileSync(path, 'hello\nworld\n');
    await expect(lastLineOffset(path)).rejects.toThrow(/last line of .*other\.txt is not an update element/);
  });
});

describe('resumeAfterOutput', () => {
  const saved = { offset: 10, synchronizerTimes: [{ synchronizerId: 's', recordTime: 't' }], updatedAt: '2026-01-01T00:00:00.000Z' };
  const load = (store: ReturnType<typeof resumeAfterOutput>) => lastValueFrom(from(store.load()), { defaultValue: undefined });

  const noSync = () => Promise.resolve();

  it('resumes after the last written line when it is further than the checkpoint, and saves that checkpoint after syncing the file', async () => {
    const inner = new MemoryCheckpointStore(saved);
    const steps: string[] = [];
    const store = resumeAfterOutput(
      { load: () => inner.load(), save: (c) => (steps.push(`save ${c.offset}`), inner.save(c)) },
      14,
      async () => void steps.push('sync'),
    );
    expect(await load(store)).toMatchObject({ offset: 14, synchronizerTimes: saved.synchronizerTimes });
    expect(steps).toEqual(['sync', 'save 14']);
    expect(inner.history.map((c) => c.offset)).toEqual([14]);
  });

  it('fails the load when the sync fails, and saves nothing', async () => {
    const inner = new MemoryCheckpointStore(saved);
    await expect(load(resumeAfterOutput(inner, 14, () => Promise.reject(new Error('EIO'))))).rejects.toThrow('EIO');
    expect(inner.history).toEqual([]);
  });

  it('keeps the checkpoint when it is as far or further, and without a line', async () => {
    const inner = new MemoryCheckpointStore(saved);
    expect(await load(resumeAfterOutput(inner, 10, noSync))).toEqual(saved);
    expect(await load(resumeAfterOutput(inner, 3, noSync))).toEqual(saved);
    expect(resumeAfterOutput(inner, undefined, noSync)).toBe(inner);
    expect(inner.history).toEqual([]);
  });

  it('resumes after the last line when nothing was saved yet (killed before the first save)', async () => {
    const cp = await load(resumeAfterOutput(new MemoryCheckpointStore(), 8, noSync));
    expect(cp).toMatchObject({ offset: 8, synchronizerTimes: [] });
  });

  it('saves through to the store', async () => {
    const inner = new MemoryCheckpointStore();
    const store = resumeAfterOutput(inner, 8, noSync);
    await lastValueFrom(from(store.save({ ...saved, offset: 30 })), { defaultValue: undefined });
    expect(inner.history.map((c) => c.offset)).toEqual([30]);
  });
});
