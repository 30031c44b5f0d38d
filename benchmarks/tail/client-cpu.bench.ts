/**
 * Question: where does a catch-up spend its time: the client or the server, per element and per page?
 *
 * Fixture: two sandboxes in their own processes seeded alike (buffered, as a real participant answers, and
 * streamed). Each run is a fresh child process that reads the whole ledger once, alternating between:
 *
 * - `tail`: `tailUpdates` (validated, pages of 200) from the buffered sandbox;
 * - `one-shot`: one `client.updates()` (validated, `limit` above the ledger) from the streamed sandbox.
 *
 * Reported: updates/s and the child's own CPU per element (`process.cpuUsage()`), median (min–max) over
 * `--runs` (default 3) of each; written to benchmarks/results/client-cpu.json (not part of `run-all`: it
 * explains the catch-up row of the tail benchmark rather than measuring a target).
 *
 *     npm --prefix benchmarks run build && node benchmarks/node_modules/.bench-build/tail/client-cpu.bench.js [--runs=3] [--seed=120000]
 */
import { fileURLToPath } from 'node:url';
import { count, lastValueFrom } from 'rxjs';
import { createLedgerClient, tailUpdates } from 'ledger-rx';
import { log, numberOption, option } from '../lib/args.js';
import { startBenchRun } from '../lib/bench-run.js';
import { runJsonChild, startSandboxProcess } from '../lib/proc.js';
import { figure, table, type Row } from '../lib/report.js';
import { updatesRequest, wildcardUpdateFormat } from '../lib/updates-request.js';

const self = fileURLToPath(import.meta.url);

interface ChildResult {
  readonly elements: number;
  readonly ms: number;
  readonly cpuMicros: number;
}

async function child(url: string, variant: string): Promise<ChildResult> {
  const client = createLedgerClient({ baseUrl: url });
  const end = (await client.ledgerEnd()).offset ?? 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let elements: number;
  if (variant === 'tail') {
    elements = await lastValueFrom(tailUpdates(client, { updateFormat: wildcardUpdateFormat(), endInclusive: end, pageLimit: 200 }).pipe(count()));
  } else {
    elements = await lastValueFrom(client.updates(updatesRequest(0, end), { limit: 10_000_000 }).pipe(count()));
  }
  const cpu = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  await client.close();
  return { elements, ms, cpuMicros: cpu.user + cpu.system };
}

async function main(): Promise<void> {
  const childUrl = option('child', '');
  if (childUrl !== '') {
    process.stdout.write(`${JSON.stringify(await child(childUrl, option('variant', 'tail')))}\n`);
    return;
  }
  const run = startBenchRun();
  const runs = numberOption('runs', 3);
  const seed = numberOption('seed', 120_000);
  const common = ['--port', '0', '--seed', String(seed)];
  const [buffered, streamed] = await Promise.all([startSandboxProcess(common), startSandboxProcess([...common, '--response-mode', 'streamed'])]);
  const samples: Record<string, ChildResult[]> = { tail: [], 'one-shot': [] };
  try {
    for (let r = 0; r < runs; r++) {
      for (const variant of ['tail', 'one-shot']) {
        const result = await runJsonChild<ChildResult>(self, [`--child=${variant === 'tail' ? buffered.url : streamed.url}`, `--variant=${variant}`]);
        samples[variant]?.push(result);
        log(`client-cpu round ${r + 1}/${runs}: ${variant} ${(result.elements / (result.ms / 1000)).toFixed(0)}/s, ${(result.cpuMicros / result.elements).toFixed(1)} µs CPU per element`);
      }
    }
  } finally {
    await Promise.all([buffered.stop(), streamed.stop()]);
  }
  const rows: Row[] = [];
  for (const [variant, list] of Object.entries(samples)) {
    const subject = variant === 'tail' ? 'tailUpdates, buffered sandbox (pages of 200)' : 'client.updates() one-shot, streamed sandbox';
    rows.push({ group: 'catch-up, client process', subject, metric: 'updates/s', value: figure(list.map((x) => x.elements / (x.ms / 1000))) });
    rows.push({ group: 'catch-up, client process', subject, metric: 'client CPU per element, µs', value: figure(list.map((x) => x.cpuMicros / x.elements)), digits: 1 });
  }
  process.stdout.write(`${table(rows)}\n`);
  const file = run.finish({ name: 'client-cpu', question: 'client CPU per element: paged catch-up vs one long response', mode: 'full', fixture: { runs, seed, pageLimit: 200 }, rows, extra: { samples } });
  log(`client-cpu: wrote ${file}`);
}

await main();
