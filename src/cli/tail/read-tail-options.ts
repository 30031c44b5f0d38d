import { flagValues } from '../options/flag-values.js';
import { readFormatOption } from '../options/read-format-option.js';
import { readStreamFlags } from '../options/read-stream-flags.js';
import type { TailOptions } from './tail-options.js';

/**
 * Turns the commander values of `ledger-rx tail` into {@link TailOptions}; throws `UsageError` (exit 2) for a
 * malformed value. Cross-flag rules are checked by `runTail`.
 */
export function readTailOptions(values: Readonly<Record<string, unknown>>): TailOptions {
  const { str, int } = flagValues(values);
  return {
    ...readStreamFlags(values),
    descending: values['descending'] === true,
    limit: int('limit', '--limit', 1),
    longPollMs: int('longPollMs', '--long-poll-ms', 1),
    checkpointFile: str('checkpoint'),
    checkpointPg: str('checkpointPg'),
    streamName: str('streamName'),
    checkpointEvery: int('checkpointEvery', '--checkpoint-every', 1),
    checkpointEveryMs: int('checkpointEveryMs', '--checkpoint-every-ms', 0),
    format: readFormatOption(values),
    out: str('out'),
    includeCheckpoints: values['checkpoints'] === true,
  };
}
