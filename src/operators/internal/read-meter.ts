import type { SchedulerLike, Subscription } from 'rxjs';
import type { DeliveredCounts, RequestOutcome, TailStatus } from '../tail-status.js';
import type { ElementMetrics } from './element-offsets.js';

const progressEveryMs = 1_000;

type Counts = { -readonly [K in keyof DeliveredCounts]: number };
const zero = (): Counts => ({ transaction: 0, reassignment: 0, topology: 0, checkpoint: 0, unknown: 0 });

/**
 * The metrics side of a paged read: counts what is delivered (by kind) and the bytes read, and reports
 * them as `progress` statuses (when a request ends, and at most every second of scheduler time during a
 * long one — also when no element follows, as on a WebSocket at rest: what was delivered is reported at
 * most a second later), and each request's end as a `request` status. Only made when the read has an
 * `onStatus`; without `describe` it reports only `request` statuses. Per element it costs a kind test and a clock read. {@link dispose} cancels the pending report.
 */
export class ReadMeter<E> {
  private counts = zero();
  private bytes = 0;
  private last: E | undefined;
  private recordTime: string | undefined;
  private dirty = false;
  private lastProgressAt: number;
  private transport = 'http';
  private position = 0;
  private pending: Subscription | undefined;

  constructor(
    private readonly emit: (status: TailStatus) => void,
    private readonly scheduler: SchedulerLike,
    /** How elements are counted; without it only `request` statuses are reported. */
    private readonly describe: ElementMetrics<E> | undefined,
  ) {
    this.lastProgressAt = scheduler.now();
  }

  /** For the source's `onBytes`. */
  readonly onBytes = (bytes: number): void => {
    this.bytes += bytes;
    this.dirty = true;
  };

  /** A request starts through `transport`. */
  start(transport: string): void {
    this.transport = transport;
  }

  /** An element was delivered; the read's position is now `position`. */
  delivered(element: E, position: number): void {
    if (this.describe === undefined) return;
    this.counts[this.describe.kind(element)]++;
    this.last = element;
    this.dirty = true;
    this.position = position;
    const due = this.lastProgressAt + progressEveryMs - this.scheduler.now();
    if (due <= 0) this.progress(position);
    else this.pending ??= this.scheduler.schedule(() => {
      this.pending = undefined;
      this.progress(this.position);
    }, due);
  }

  /** Reports what was delivered since the last report, if anything. */
  progress(position: number): void {
    this.dispose();
    if (!this.dirty || this.describe === undefined) return;
    if (this.last !== undefined) {
      this.recordTime = this.describe.recordTime(this.last) ?? this.recordTime;
      this.last = undefined;
    }
    this.emit({ type: 'progress', transport: this.transport, delivered: this.counts, bytes: this.bytes, offset: position, recordTime: this.recordTime });
    this.counts = zero();
    this.bytes = 0;
    this.dirty = false;
    this.lastProgressAt = this.scheduler.now();
  }

  /** A request ended: reports the progress, then the request. */
  ended(position: number, outcome: RequestOutcome, elements: number, limit: number | undefined, durationMs: number, error?: unknown): void {
    this.progress(position);
    this.emit({
      type: 'request',
      transport: this.transport,
      outcome,
      elements,
      limit,
      durationMs,
      ...(outcome === 'error' ? { error } : {}),
    });
  }

  /** Cancels the pending report (the read ended or was unsubscribed, or a report is made now). */
  dispose(): void {
    this.pending?.unsubscribe();
    this.pending = undefined;
  }
}
