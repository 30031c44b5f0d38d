import { afterEach, beforeEach } from 'vitest';

// The library never logs: any console call during a test is a defect.
const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
const originals = new Map<string, (...args: unknown[]) => void>();
let calls: string[] = [];

beforeEach(() => {
  calls = [];
  for (const m of methods) {
    originals.set(m, console[m]);
    console[m] = (...args: unknown[]) => {
      calls.push(`console.${m}(${args.map(String).join(' ')})`);
    };
  }
});

afterEach(() => {
  for (const m of methods) console[m] = originals.get(m) as (typeof console)[typeof m];
  if (calls.length > 0) throw new Error(`unexpected console output:\n${calls.join('\n')}`);
});
