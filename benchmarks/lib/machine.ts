/** What machine the numbers come from, and how busy it was. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
}

export function machineInfo(): MachineInfo {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const lscpu = execFileSync('lscpu', { encoding: 'utf8' });
    cpu = /Model name:\s*(.+)/.exec(lscpu)?.[1]?.trim() ?? cpu;
  } catch {
    // lscpu is optional
  }
  let os: string = process.platform;
  try {
    os = execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim();
  } catch {
    // uname is optional
  }
  return { cpu, cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, os };
}

/** `uptime`-style load averages (1, 5, 15 min). */
export function load(): string {
  return loadavg().map((l) => l.toFixed(2)).join(', ');
}

let calibrationText: string | undefined;

/**
 * A CPU speed index: MB/s of `JSON.parse` on a fixed 8 MB JSON text (median of 5). The load average does
 * not show everything: on a shared VM host the same code can run much slower while the VM itself is idle,
 * so every result records this index before and after, and figures from different runs can be compared
 * relative to it.
 */
export function speedIndex(): number {
  if (calibrationText === undefined) {
    const items: unknown[] = [];
    for (let i = 0; items.length * 160 < 8e6; i++) {
      items.push({ id: `item-${i}`, n: i * 7919, ok: i % 3 === 0, tags: ['alpha', 'beta', `t${i % 17}`], nested: { amount: `${i}.5000000000`, note: 'Zürich desk ✅' } });
    }
    calibrationText = JSON.stringify(items);
  }
  const text = calibrationText;
  const rates: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    JSON.parse(text);
    rates.push(Buffer.byteLength(text) / 1e6 / ((performance.now() - t0) / 1000));
  }
  rates.sort((a, b) => a - b);
  return Math.round(rates[2] as number);
}
