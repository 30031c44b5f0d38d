import { completionOf } from '../../completions/completion-of.js';
import { completionOffset } from '../../completions/completion-offset.js';
import type { CompletionStreamResponse } from '../../schemas/index.js';
import { elide } from '../pretty/elide.js';
import type { PrettyRow, PrettySpan } from '../pretty/pretty-row.js';
import { shortParty } from '../pretty/short-party.js';
import { splitRecordTime } from '../pretty/split-record-time.js';

/** The Canton error code at the start of a status message (`DUPLICATE_COMMAND(10,8a1b…): …`). */
const cantonCode = /^([A-Z][A-Z0-9_]*)\(/;

/**
 * The row of one completion in the human view of `ledger-rx completions`: the offset, the record time of
 * day (UTC), `ok` or `FAILED`, the command id; then the submitting parties (shortened as everywhere:
 * `shortParty`) and, for a committed command, its update id (shortened), for a failed one the Canton error
 * code (else the gRPC status code) and the status message. `undefined` for a checkpoint, which the view does
 * not show. Pure.
 */
export function completionRow(element: CompletionStreamResponse): PrettyRow | undefined {
  const completion = completionOf(element);
  if (completion === undefined) return undefined;
  const offset = completionOffset(element);
  const at = splitRecordTime(completion.synchronizerTime?.recordTime ?? '');
  const code = completion.status?.code ?? 0;
  const message = completion.status?.message ?? '';
  const parties: PrettySpan = { text: (completion.actAs ?? []).map(shortParty).join(', '), style: 'party', shrink: 3 };
  const cells = [
    { text: offset === undefined ? '?' : String(offset), style: 'offset' as const, align: 'right' as const, minWidth: 6 },
    { text: at.time, style: 'time' as const },
    code === 0 ? { text: 'ok', style: 'created' as const, minWidth: 6 } : { text: 'FAILED', style: 'archived' as const, minWidth: 6 },
    { text: completion.commandId, style: 'id' as const, minWidth: 12, maxWidth: 24 },
  ];
  if (code === 0) return { cells, spans: [parties, { text: ' ' }, { text: `update ${elide(completion.updateId ?? '', 8, 4)}`, style: 'muted', shrink: 2 }] };
  const failure = cantonCode.exec(message)?.[1] ?? `code ${code}`;
  const cause = message.slice(message.indexOf(':') + 1).trim();
  return { cells, spans: [{ text: failure, style: 'archived' }, { text: ' ' }, parties, { text: ' ' }, { text: cause, style: 'muted', shrink: 2 }] };
}
