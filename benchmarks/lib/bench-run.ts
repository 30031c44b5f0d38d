import { load, machineInfo, speedIndex } from './machine.js';
import { writeResult, type BenchResult } from './report.js';

/** What a benchmark states about its run; the rest of a {@link BenchResult} is measured by {@link startBenchRun}. */
export type BenchOutcome = Omit<BenchResult, 'date' | 'machine' | 'load' | 'speed' | 'durationSeconds'>;

/**
 * Starts the bookkeeping of one benchmark run: takes the start time, the machine's load and its CPU speed
 * index now; `finish` takes them again, adds the date and the machine, writes the result file and returns
 * its path.
 */
export function startBenchRun(): { finish(outcome: BenchOutcome): string } {
  const started = performance.now();
  const loadBefore = load();
  const speedBefore = speedIndex();
  return {
    finish: (outcome) =>
      writeResult({
        ...outcome,
        date: new Date().toISOString(),
        machine: machineInfo(),
        load: { before: loadBefore, after: load() },
        speed: { before: speedBefore, after: speedIndex() },
        durationSeconds: Math.round((performance.now() - started) / 1000),
      }),
  };
}
