/**
 * A fault for accepted command submissions (`Sandbox.injectSubmissionFault`): the next accepted
 * submission(s) are answered `{}` as usual but later fail, reported on the completion stream:
 *
 * - `timeout`: `NOT_SEQUENCED_TIMEOUT` (category 2), the command was never sequenced;
 * - `contention`: `LOCAL_VERDICT_LOCKED_CONTRACTS` (category 2), a contract it uses was locked by another
 *   transaction in flight;
 * - `inactive-contracts`: `LOCAL_VERDICT_INACTIVE_CONTRACTS` (category 11), a contract it uses was archived
 *   meanwhile.
 *
 * `times` (default 1) is how many submissions fail this way.
 */
export interface SubmissionFault {
  readonly kind: 'timeout' | 'contention' | 'inactive-contracts';
  readonly times?: number;
}

/** The queue of {@link SubmissionFault}s: the head applies to the next accepted submissions. */
export class SubmissionFaults {
  private readonly queue: { fault: SubmissionFault; left: number }[] = [];

  add(fault: SubmissionFault): void {
    this.queue.push({ fault, left: fault.times ?? 1 });
  }

  /** The fault due for the next submission (consumed once), if any. */
  take(): SubmissionFault | undefined {
    const head = this.queue[0];
    if (!head) return undefined;
    head.left -= 1;
    if (head.left <= 0) this.queue.shift();
    return head.fault;
  }
}
