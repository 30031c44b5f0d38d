import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/support/run-in-process.js';

/**
 * `ledger-rx codegen` refuses bad usage (exit 2) and unreadable DARs (exit 1, the error's code and the file named):
 * run in process (the program of `createProgram`); codegen.test.ts runs the built entry.
 */
describe('ledger-rx codegen: errors', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-codegen-errors-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('without --out: usage error', async () => {
    const cli = await runInProcess(['codegen', join(dir, 'x.dar')]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/--out/);
  });

  it('a file that is not a DAR: exit 1 with DAR_NOT_A_ZIP and the file', async () => {
    const file = join(dir, 'not-a.dar');
    await writeFile(file, 'plain text');
    const cli = await runInProcess(['codegen', file, '--out', join(dir, 'out')]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('DAR_NOT_A_ZIP');
    expect(cli.stderr).toContain(file);
  });

  it('a missing file: exit 1', async () => {
    const cli = await runInProcess(['codegen', join(dir, 'missing.dar'), '--out', join(dir, 'out')]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/missing\.dar/);
  });
});
