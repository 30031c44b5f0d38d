import type { UpdateFault } from './update-fault.js';

/**
 * The queue of faults injected with `Sandbox.injectFault`: the head fault applies to the next updates
 * answer(s), each as many times as its `times` says (default once), then the next one is due.
 */
export class FaultQueue {
  private readonly queue: { fault: UpdateFault; left: number }[] = [];

  /** Queues a fault for the next updates answer(s). */
  add(fault: UpdateFault): void {
    this.queue.push({ fault, left: fault.times ?? 1 });
  }

  /** The fault the next updates answer should carry, if one is queued. */
  peek(): UpdateFault | undefined {
    return this.queue[0]?.fault;
  }

  /** Marks the queued fault as applied once. */
  consume(): void {
    const head = this.queue[0];
    if (!head) return;
    head.left -= 1;
    if (head.left <= 0) this.queue.shift();
  }
}
