/** CPU time of processes: a running one from /proc, and the measured child's own at its exit. */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/** The stat fields of a process after its command name: index 0 is field 3 (state); undefined when it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU time of a process tree so far, in ms: `pid`'s own user + system time, the time of its children that
 * ended and were waited for (cutime + cstime), and the time of its live children (found by their parent pid
 * in /proc). For a PostgreSQL server's postmaster this is the whole server: its backends (ended or not),
 * the WAL writer, checkpointer and the rest. 0 where /proc is missing.
 */
export function processTreeCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const own = statFields(pid);
  if (own === undefined) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields !== undefined && Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / ticksPerSecond;
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
