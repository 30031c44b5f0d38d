import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCheckpointFile } from '../../src/cli/checkpoint/check-checkpoint-file.js';
import { UsageError } from '../../src/cli/options/usage-error.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-ckpt-check-'));
});
afterEach(() => {
  chmodSync(dir, 0o700);
  rmSync(dir, { recursive: true, force: true });
});

describe('checkCheckpointFile', () => {
  it('accepts a new or existing file in a writable directory, and leaves no probe behind', async () => {
    await checkCheckpointFile(join(dir, 'new.ckpt'));
    writeFileSync(join(dir, 'old.ckpt'), '{"offset":1}\n');
    await checkCheckpointFile(join(dir, 'old.ckpt'));
    expect(readdirSync(dir)).toEqual(['old.ckpt']);
  });

  it('refuses a missing directory, a file as directory, and a directory as the file (usage errors)', async () => {
    await expect(checkCheckpointFile(join(dir, 'missing', 'c.ckpt'))).rejects.toThrow(/--checkpoint .*: the directory .*missing does not exist/);
    writeFileSync(join(dir, 'plain'), '');
    await expect(checkCheckpointFile(join(dir, 'plain', 'c.ckpt'))).rejects.toBeInstanceOf(UsageError);
    mkdirSync(join(dir, 'sub'));
    await expect(checkCheckpointFile(join(dir, 'sub'))).rejects.toThrow(/it is a directory/);
  });

  it.skipIf(process.getuid?.() === 0)('refuses a directory it cannot create files in', async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    try {
      await expect(checkCheckpointFile(join(locked, 'c.ckpt'))).rejects.toThrow(/cannot create files in/);
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});
