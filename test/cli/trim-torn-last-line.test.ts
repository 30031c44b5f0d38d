import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trimTornLastLine } from '../../src/cli/output/trim-torn-last-line.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-trim-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('trimTornLastLine', () => {
  it('removes a partial last line and keeps whole ones', async () => {
    const path = join(dir, 'out.ndjson');
    writeFileSync(path, '{"a":1}\n{"b":2}\n{"update":{"Trans');
    expect(await trimTornLastLine(path)).toBe('{"update":{"Trans'.length);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
  });

  it('leaves a file that ends with a newline, an empty file and a missing file alone', async () => {
    const whole = join(dir, 'whole.ndjson');
    writeFileSync(whole, '{"a":1}\n');
    expect(await trimTornLastLine(whole)).toBe(0);
    expect(readFileSync(whole, 'utf8')).toBe('{"a":1}\n');
    const empty = join(dir, 'empty.ndjson');
    writeFileSync(empty, '');
    expect(await trimTornLastLine(empty)).toBe(0);
    expect(await trimTornLastLine(join(dir, 'missing.ndjson'))).toBe(0);
  });

  it('empties a file holding only a partial line, and finds the newline across read chunks', async () => {
    const partial = join(dir, 'partial.ndjson');
    writeFileSync(partial, '{"upd');
    expect(await trimTornLastLine(partial)).toBe(5);
    expect(readFileSync(partial, 'utf8')).toBe('');
    const long = join(dir, 'long.ndjson');
    const tail = 'x'.repeat(200_000);
    writeFileSync(long, `{"a":1}\n${tail}`);
    expect(await trimTornLastLine(long)).toBe(tail.length);
    expect(readFileSync(long, 'utf8')).toBe('{"a":1}\n');
  });
});

describe('tail --checkpoint --out after a torn write', () => {
  it('repairs the partial last line and resumes: every line parses and the file equals the ledger', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const { runInProcess } = await import('./support/run-in-process.js');
    const sandbox = await startSandbox({ seed: 60 });
    try {
      const out = join(dir, 'updates.ndjson');
      const checkpoint = join(dir, 'tail.checkpoint');
      const common = ['tail', '--url', sandbox.url, '--checkpoint', checkpoint, '--out', out, '--log-level', 'error'];
      const first = await runInProcess([...common, '--limit', '10']);
      expect(first.code, first.stderr).toBe(0);
      // What a kill in the middle of a write leaves behind.
      writeFileSync(out, `${readFileSync(out, 'utf8')}{"update":{"Transaction":{"value":{"offs`);
      const second = await runInProcess([...common, '--to', 'end']);
      expect(second.code, second.stderr).toBe(0);
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      const offsets = lines.map((l) => {
        const update = (JSON.parse(l) as { update: Record<string, { value: { offset: number } }> }).update;
        return (Object.values(update)[0] as { value: { offset: number } }).value.offset;
      });
      const expected = sandbox
        .updates()
        .filter((u) => u.kind === 'Transaction' && u.events.some((e) => e.acsDelta))
        .map((u) => u.offset);
      expect(offsets).toEqual(expected);
    } finally {
      await sandbox.close();
    }
  });
});
