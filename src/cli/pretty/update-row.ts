import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { elide } from './elide.js';
import { eventSpans } from './event-spans.js';
import type { PrettyRow, PrettySpan } from './pretty-row.js';
import { splitRecordTime } from './split-record-time.js';
import { wireVariant } from './wire-variant.js';

/** The row of one update, and the date (UTC) of its record time, for the date lines between days. */
export interface UpdateRow {
  readonly row: PrettyRow;
  /** `YYYY-MM-DD`, or `''` when the element has no readable record time. */
  readonly date: string;
}

const kinds: Readonly<Record<string, string>> = {
  Transaction: 'tx',
  Reassignment: 'reassign',
  TopologyTransaction: 'topology',
  OffsetCheckpoint: 'checkpoint',
};

/** At most this many events are drawn on the line; the others are counted (`+3 more`). */
const maxEvents = 3;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The human row of an element of `POST /v2/updates` (validated or not; unknown kinds included), one line
 * per update: the offset; the record time of day (UTC, `HH:MM:SS.mmm`); the kind (`tx`, `reassign`,
 * `topology`, `checkpoint`, or the tag of a kind this library does not know); the command id, else the
 * workflow id, else the update id shortened; then its events (see `eventSpans`), the first three
 * separated by `│` and the rest counted. An `OffsetCheckpoint` is a muted row with its offset and the
 * first synchronizer's time.
 */
export function updateRow(element: JsGetUpdatesResponse): UpdateRow {
  const update = wireVariant((element as { update?: unknown }).update);
  if (!update) return { row: { cells: [{ text: '?' }], spans: [{ text: 'not an update element', style: 'muted' }] }, date: '' };
  const u = update.payload;
  const offset = typeof u['offset'] === 'number' ? String(u['offset']) : '?';
  const kind = kinds[update.tag] ?? update.tag;
  if (update.tag === 'OffsetCheckpoint') {
    const times = Array.isArray(u['synchronizerTimes']) ? (u['synchronizerTimes'] as unknown[]) : [];
    const first = times[0] as { recordTime?: unknown } | undefined;
    const at = splitRecordTime(str(first?.recordTime));
    return { row: { cells: [{ text: offset, style: 'offset', align: 'right', minWidth: 6 }, { text: at.time, style: 'time' }, { text: kind, style: 'kind', minWidth: 2 }, { text: '', minWidth: 10 }], spans: [], muted: true }, date: at.date };
  }
  const at = splitRecordTime(str(u['recordTime']));
  const id = str(u['commandId']) || str(u['workflowId']);
  const idCell = id ? { text: id, style: 'id' as const, minWidth: 10, maxWidth: 20 } : { text: elide(str(u['updateId']), 8, 4), style: 'muted' as const, minWidth: 10, maxWidth: 20 };
  const cells = [{ text: offset, style: 'offset' as const, align: 'right' as const, minWidth: 6 }, { text: at.time, style: 'time' as const }, { text: kind, style: 'kind' as const }, idCell];
  if (!(update.tag in kinds)) return { row: { cells, spans: [{ text: 'an update kind this version does not know', style: 'muted' }] }, date: at.date };
  const events = Array.isArray(u['events']) ? (u['events'] as unknown[]) : [];
  const spans: PrettySpan[] = [];
  events.slice(0, maxEvents).forEach((event, i) => {
    if (i > 0) spans.push({ text: ' │ ', style: 'separator' });
    spans.push(...eventSpans(update.tag === 'TopologyTransaction' ? (event as { event?: unknown } | null)?.event : event));
  });
  if (events.length > maxEvents) spans.push({ text: ` +${events.length - maxEvents} more`, style: 'muted' });
  if (events.length === 0) spans.push({ text: 'no events', style: 'muted' });
  return { row: { cells, spans }, date: at.date };
}
