import { expect } from 'vitest';

const n = (v: number) => v.toLocaleString('en-US');

/**
 * Checks the one-line summary a streaming command (`ingest`, `publish`, `export`) logs at its end without
 * `--stats`, in its JSON log on `stderr`: exactly one such line, its text `<verb> N updates (offsets a–b) in S s`
 * and its fields agreeing with `expected` (the count and range the test knows from what was stored).
 */
export function expectSummary(stderr: string, verb: string, expected: { count: number; firstOffset: number; lastOffset: number }): void {
  const records = stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg?: string; [field: string]: unknown });
  const summaries = records.filter((r) => r.msg?.startsWith(`${verb} `));
  expect(summaries, stderr).toHaveLength(1);
  const [summary] = summaries;
  const unit = expected.count === 1 ? 'update' : 'updates';
  const text = `${verb} ${n(expected.count)} ${unit} (offsets ${n(expected.firstOffset)}–${n(expected.lastOffset)}) in `;
  expect(summary?.msg?.slice(0, text.length)).toBe(text);
  expect(summary?.msg?.slice(text.length)).toMatch(/^\d+\.\d s$/);
  expect(summary).toMatchObject({ level: 30, ...expected });
  expect(records.at(-1), 'the summary is the last log line').toBe(summary);
}
