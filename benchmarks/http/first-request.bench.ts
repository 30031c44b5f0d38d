/**
 * Question: how much of a fresh process's time to the first element is the transport's own first request?
 *
 * Fixture: a sandbox (streamed) in its own process, seeded with 2,000 transactions. Each run is a fresh
 * child process that makes three requests in a row for 5 elements of `POST /v2/updates`, timing each:
 *
 * - `undici`: undici `request()` alone, from the call to the response headers;
 * - `ledger-rx`: `client.updates()` (validated), from the subscription to the first element.
 *
 * Children alternate between the two, `--runs` (default 7) of each. Reported: the median (min–max) of
 * request 1, 2 and 3 for both; written to benchmarks/results/first-request.json (not part of `run-all`: it
 * explains the "cold" rows of the HTTP benchmark rather than measuring a target).
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/http/first-request.bench.js [--runs=7]
 */
import { fileURLToPath } from 'node:url';
import { createLedgerClient } from 'ledger-rx';
import { Agent, request } from 'undici';
import { log, numberOption, option } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { runJsonChild, startSandboxProcess } from '../lib/proc.js';
import { figure, table, type Row } from '../lib/report.js';
import { updatesRequest } from '../lib/updates-request.js';

const self = fileURLToPath(import.meta.url);

/** In a child: the times (ms) of three requests in a row with `variant`. */
async function child(url: string, variant: string): Promise<number[]> {
  const times: number[] = [];
  if (variant === 'undici') {
    const agent = new Agent();
    const body = JSON.stringify(updatesRequest(0));
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const res = await request(`${url}/v2/updates?limit=5`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
      times.push(performance.now() - t0);
      await res.body.dump();
    }
    await agent.close();
  } else {
    const client = createLedgerClient({ baseUrl: url });
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        const sub = client.updates(updatesRequest(0), { limit: 5 }).subscribe({
          next: () => {
            times.push(performance.now() - t0);
            sub.unsubscribe();
            resolve();
          },
          error: reject,
        });
      });
    }
    await client.close();
  }
  return times;
}

async function main(): Promise<void> {
  const childUrl = option('child', '');
  if (childUrl !== '') {
    process.stdout.write(`${JSON.stringify(await child(childUrl, option('variant', 'undici')))}\n`);
    return;
  }
  const run = startBenchRun();
  const runs = numberOption('runs', 7);
  const sandbox = await startSandboxProcess(['--port', '0', '--seed', '2000', '--response-mode', 'streamed']);
  const samples: Record<string, number[][]> = { undici: [], 'ledger-rx': [] };
  try {
    for (let r = 0; r < runs; r++) {
      for (const variant of ['undici', 'ledger-rx']) {
        const times = await runJsonChild<number[]>(self, [`--child=${sandbox.url}`, `--variant=${variant}`]);
        samples[variant]?.push(times);
        log(`first-request round ${r + 1}/${runs}: ${variant} ${times.map((t) => t.toFixed(1)).join(' / ')} ms`);
      }
    }
  } finally {
    await sandbox.stop();
  }
  const rows: Row[] = [];
  for (const [variant, list] of Object.entries(samples)) {
    const subject = variant === 'undici' ? 'undici request(), to the headers' : 'ledger-rx client.updates() validated, to the first element';
    for (let i = 0; i < 3; i++) rows.push({ group: 'fresh process, 5-element reads', subject, metric: `request ${i + 1}, ms`, value: figure(list.map((t) => t[i] ?? Number.NaN)), digits: 1 });
  }
  process.stdout.write(`${table(rows)}\n`);
  const file = run.finish({ name: 'first-request', question: "the transport's share of a fresh process's time to the first element", mode: 'full', fixture: { runs, seed: 2000, limit: 5 }, rows, extra: { samples } });
  log(`first-request: wrote ${file}`);
}

await main();
