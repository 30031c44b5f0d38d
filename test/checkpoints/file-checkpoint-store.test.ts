import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileCheckpointStore } from '../../src/checkpoints/index.js';
import { repoRoot } from '../support/shared-dir.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-cp-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cp = (offset: number) => ({ offset, synchronizerTimes: [{ synchronizerId: 'global::1220', recordTime: '2026-01-01T00:00:00Z' }], updatedAt: '2026-01-01T00:00:01.000Z' });

describe('FileCheckpointStore', () => {
  it('loads undefined before the first save, then what was saved last', async () => {
    const store = new FileCheckpointStore(join(dir, 'tail.checkpoint'));
    expect(await store.load()).toBeUndefined();
    await store.save(cp(10));
    await store.save(cp(25));
    expect(await store.load()).toEqual(cp(25));
    expect(await new FileCheckpointStore(join(dir, 'tail.checkpoint')).load()).toEqual(cp(25));
  });

  it('leaves no temporary files behind', async () => {
    const store = new FileCheckpointStore(join(dir, 'cp.json'));
    for (let i = 1; i <= 20; i++) await store.save(cp(i));
    expect(readdirSync(dir)).toEqual(['cp.json']);
  });

  it('fails with CHECKPOINT_STORE_FAILED on a file that is not a checkpoint', async () => {
    writeFileSync(join(dir, 'bad.json'), '{"offset": "ten"}');
    writeFileSync(join(dir, 'torn.json'), '{"offset": 1');
    await expect(new FileCheckpointStore(join(dir, 'bad.json')).load()).rejects.toMatchObject({ code: 'CHECKPOINT_STORE_FAILED' });
    await expect(new FileCheckpointStore(join(dir, 'torn.json')).load()).rejects.toMatchObject({ code: 'CHECKPOINT_STORE_FAILED' });
  });

  it('fails with CHECKPOINT_STORE_FAILED when the directory does not exist', async () => {
    await expect(new FileCheckpointStore(join(dir, 'missing', 'cp.json')).save(cp(1))).rejects.toMatchObject({ code: 'CHECKPOINT_STORE_FAILED' });
  });

  it('never leaves a torn file when the writer is killed at random moments', async () => {
    const path = join(dir, 'crash.json');
    const script = `
      import { FileCheckpointStore } from ${JSON.stringify(join(repoRoot, 'dist', 'index.js'))};
      const store = new FileCheckpointStore(${JSON.stringify(path)});
      let offset = 0;
      process.stdout.write('ready\\n');
      for (;;) await store.save({ offset: ++offset, synchronizerTimes: [], updatedAt: new Date().toISOString() });
    `;
    let previous = 0;
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 20 + ((round * 37) % 60)));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const loaded = await new FileCheckpointStore(path).load();
      // Each run restarts at 1, so only check the file is whole and positive.
      expect(loaded?.offset).toBeGreaterThan(0);
      previous = loaded?.offset ?? previous;
    }
    expect(previous).toBeGreaterThan(0);
  });
});
