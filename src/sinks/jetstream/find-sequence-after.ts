import type { JetStreamManager } from '@nats-io/jetstream';
import { LedgerHeaders } from './ledger-headers.js';

/**
 * The first stream sequence whose message carries an offset greater than `offset`, found by binary search
 * over the stream's sequences (offsets grow with sequences in a stream written by `JetStreamSink`), reading
 * O(log n) messages; a sequence whose message is gone (deleted, expired) is searched past. Resolves with
 * `last_seq + 1` when every message is at or below `offset`, and with `first_seq` when all are above.
 */
export async function findSequenceAfter(jsm: JetStreamManager, stream: string, offset: number): Promise<number> {
  const info = await jsm.streams.info(stream);
  let low = info.state.first_seq;
  let high = info.state.last_seq + 1; // the answer lies in [low, high]
  const offsetAt = async (seq: number): Promise<{ seq: number; offset: number } | undefined> => {
    for (let s = seq; s < high; s++) {
      const m = await jsm.streams.getMessage(stream, { seq: s });
      const raw = m?.header.get(LedgerHeaders.offset);
      if (m && raw && /^\d+$/.test(raw)) return { seq: s, offset: Number(raw) };
    }
    return undefined;
  };
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const found = await offsetAt(mid);
    if (!found) high = mid;
    else if (found.offset > offset) high = mid;
    else low = found.seq + 1;
  }
  return low;
}
