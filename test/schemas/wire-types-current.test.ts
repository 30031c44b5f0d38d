import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, specAvailable } from '../support/shared-dir.js';

/** Without ../shared/canton: an error under CI; elsewhere this check skips, with the reason on stderr. */
const withSpec = specAvailable('the check that the wire types in src/schemas are what scripts/generate-wire-types.mjs writes');
const temp = mkdtempSync(join(tmpdir(), 'ledger-rx-wire-types-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const generator = join(repoRoot, 'scripts', 'generate-wire-types.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [generator, ...args], { cwd: repoRoot, encoding: 'utf8' });

/**
 * The wire model's named types are generated from the spec into the schema files and checked in
 * (docs/wire-types.md): the checked-in files must be what the script writes now, so a change of the script or
 * of the spec shows as a change of src/schemas (and each schema is checked against its type where it is
 * declared).
 */
describe.runIf(withSpec)('the wire types of src/schemas', () => {
  it('is what scripts/generate-wire-types.mjs writes from the spec', () => {
    const result = run('--check');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('generate-wire-types: the wire types are current\n');
    expect(result.status).toBe(0);
  });

  it('a generated part that differs (one edited doc line, one field left out) fails the check, naming the files and the fix', () => {
    const copy = join(temp, 'schemas');
    cpSync(join(repoRoot, 'src', 'schemas'), copy, { recursive: true });
    const edit = (file: string, from: string, to: string) => {
      const current = readFileSync(join(copy, file), 'utf8');
      expect(current).toContain(from);
      writeFileSync(join(copy, file), current.replace(from, to));
    };
    edit('events.ts', 'The ID of the created contract.', 'The id of the contract.');
    edit('updates.ts', '  transactionHash?: string | null | undefined;\n', '');
    const result = run('--check', '--schemas', copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `generate-wire-types: not what the script writes from the spec: ${join(copy, 'events.ts')}, ${join(copy, 'updates.ts')}: run node scripts/generate-wire-types.mjs\n`,
    );
  });
});
