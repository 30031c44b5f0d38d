import { UsageError } from '../options/usage-error.js';
import type { TailOptions } from './tail-options.js';

/**
 * Checks the flag combinations of `tail` that no single flag can check (a pure function): one checkpoint
 * store at most, `--checkpoint-pg` with `--stream-name` and only then, a `--descending` read without a
 * checkpoint and not from `end`, `--to` not below `--from`, and no human view in an `--out` file that a
 * checkpoint resumes (resuming reads the file's last line back as an element). Throws {@link UsageError} (exit 2) naming
 * the flags; returns nothing when the combination is valid.
 */
export function checkTailOptions(o: TailOptions): void {
  if (o.checkpointFile !== undefined && o.checkpointPg !== undefined) throw new UsageError('give either --checkpoint or --checkpoint-pg, not both');
  if (o.checkpointPg !== undefined && !o.streamName) throw new UsageError('--checkpoint-pg needs --stream-name NAME');
  if (o.streamName !== undefined && o.checkpointPg === undefined) throw new UsageError('--stream-name goes with --checkpoint-pg');
  if (o.descending) {
    if (o.checkpointFile !== undefined || o.checkpointPg !== undefined) throw new UsageError('--descending reads history once: it takes no checkpoint');
    if (o.from === 'end') throw new UsageError('--descending with --from end reads nothing: give --from OFFSET or leave it out');
  }
  if (typeof o.from === 'number' && typeof o.to === 'number' && o.to < o.from) throw new UsageError(`--to ${o.to} is below --from ${o.from}`);
  const checkpoint = o.checkpointFile !== undefined || o.checkpointPg !== undefined;
  if (o.format === 'pretty' && checkpoint && o.out !== undefined && o.out !== '-') {
    throw new UsageError('--format pretty is a view for people: an --out file resumed with a checkpoint must be --format ndjson');
  }
}
