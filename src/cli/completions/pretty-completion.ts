import { completionOf } from '../../completions/completion-of.js';
import { completionOffset } from '../../completions/completion-offset.js';
import type { CompletionStreamResponse } from '../../schemas/index.js';

/**
 * One line of `ledger-rx completions --format pretty`: the offset, `ok` or `FAILED` with the Canton code
 * (else the gRPC code), the command id, the update id of a committed command, the submitting parties; a
 * checkpoint is `checkpoint`. Cut to `width` columns when given. Pure.
 */
export function prettyCompletion(element: CompletionStreamResponse, width: number | undefined): string {
  const offset = String(completionOffset(element) ?? '').padStart(8);
  const completion = completionOf(element);
  let line: string;
  if (completion === undefined) line = `${offset}  checkpoint`;
  else {
    const code = completion.status?.code ?? 0;
    const outcome = code === 0 ? 'ok' : `FAILED ${/^([A-Z][A-Z0-9_]*)\(/.exec(completion.status?.message ?? '')?.[1] ?? `code ${code}`}`;
    line = [offset, outcome.padEnd(6), completion.commandId, code === 0 ? (completion.updateId ?? '') : (completion.status?.message ?? ''), (completion.actAs ?? []).join(',')].join('  ');
  }
  return width !== undefined && line.length > width ? `${line.slice(0, Math.max(1, width - 1))}…` : line;
}
