/** CPU time of processes: a running one from /proc, and the measured child's own at its exit. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDir } from './paths.js';

let ticksPerSecond: number | undefined;

/** User + system CPU time of a running process so far, in ms (from /proc/<pid>/stat); 0 where /proc is missing. */
export function processCpuMs(pid: number): number {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name (which may hold spaces) start at state, field 3; utime and stime are 14 and 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/**
 * Node flags that make a child print its own CPU time and peak RSS as its last stderr line when it exits:
 * `{"cpuAtExit":{"userMs":…,"systemMs":…,"maxRssKiB":…}}` (see cpu-at-exit.ts); {@link cpuAtExitOf} reads it back.
 */
export const cpuAtExitFlags: readonly string[] = ['--import', join(buildDir, 'lib', 'cpu-at-exit.js')];

export interface CpuAtExit {
  readonly userMs: number;
  readonly systemMs: number;
  readonly maxRssKiB: number;
}

/** The `cpuAtExit` line in a child's stderr, if any. */
export function cpuAtExitOf(stderr: string): CpuAtExit | undefined {
  const line = stderr
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"cpuAtExit"'));
  return line === undefined ? undefined : (JSON.parse(line) as { cpuAtExit: CpuAtExit }).cpuAtExit;
}
