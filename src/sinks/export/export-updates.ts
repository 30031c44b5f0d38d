import { concatMap, defer, from, Observable, type Subscription } from 'rxjs';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { BatchCommitter, type BatchCommit } from '../batch-committer.js';
import type { SinkPosition } from '../ledger-sink.js';
import { ExportSink, type ExportSinkOptions } from './export-sink.js';

/** Options of {@link exportUpdates}: the sink's, the batching, and the read. */
export interface ExportUpdatesOptions extends ExportSinkOptions {
  /** Updates per commit, i.e. per file of each table and record date. Default 20 000. */
  readonly batchSize?: number | undefined;
  /** A partial batch is committed at most this long after its first element, in ms. Default 60 000. */
  readonly maxDelayMs?: number | undefined;
  /**
   * The updates to write, after `position` (where the files end; `undefined` for an empty directory): e.g.
   * `tailUpdates(client, { beginExclusive: position?.offset ?? 0, updateFormat, rawText: true })`. Offsets
   * must increase.
   */
  readonly read: (position: SinkPosition | undefined) => Observable<JsGetUpdatesResponse>;
}

/**
 * Writes the updates of `read` to export files (an {@link ExportSink} driven by a {@link BatchCommitter}),
 * exactly once with the files as the checkpoint: on subscription it starts the sink (which resumes after what
 * the directory holds) and subscribes to `read(position)`; emits each commit (a range of files complete and
 * durable), and completes after the last batch is committed when `read` completes. Errors with the first
 * failure of the read, the sink or a commit (the files keep every range committed before). Unsubscribing stops
 * the read and closes the sink without committing the open batch (it is read again by the next run).
 */
export function exportUpdates(options: ExportUpdatesOptions): Observable<BatchCommit> {
  return new Observable<BatchCommit>((subscriber) => {
    const sink = new ExportSink(options);
    const abort = new AbortController();
    let reading: Subscription | undefined;
    let committer: BatchCommitter | undefined;
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      committer?.dispose();
      await sink.close();
    };
    const fail = (error: unknown) => {
      void close().finally(() => subscriber.error(error));
    };
    sink.start(abort.signal).then((position) => {
      if (subscriber.closed) return;
      const batches = new BatchCommitter({
        sink,
        size: options.batchSize ?? 20_000,
        maxDelayMs: options.maxDelayMs ?? 60_000,
        start: position,
        onCommit: (commit) => subscriber.next(commit),
        onFailure: () => undefined, // reported by add/flush below
      });
      committer = batches;
      reading = options
        .read(position)
        .pipe(concatMap((element) => defer(() => from(batches.add(element)))))
        .subscribe({
          error: fail,
          complete: () => {
            batches.flush().then(
              () => close().then(() => subscriber.complete(), fail),
              fail,
            );
          },
        });
    }, fail);
    return () => {
      abort.abort();
      reading?.unsubscribe();
      void close();
    };
  });
}
