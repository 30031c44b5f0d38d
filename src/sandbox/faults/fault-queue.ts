import { webSocketOnlyFaults, type UpdateFault } from './update-fault.js';

/** The transport an updates answer goes over. */
export type FaultTransport = 'http' | 'websocket';

function appliesTo(fault: UpdateFault, transport: FaultTransport): boolean {
  const target = webSocketOnlyFaults.has(fault.kind) ? 'websocket' : (fault.transport ?? 'any');
  return target === 'any' || target === transport;
}

/**
 * The queue of faults injected with `Sandbox.injectFault`: the first fault that applies to a transport
 * is due on the next updates answer over it, as many times as its `times` says (default once).
 */
export class FaultQueue {
  private readonly queue: { fault: UpdateFault; left: number }[] = [];

  /** Queues a fault for the next updates answer(s). */
  add(fault: UpdateFault): void {
    this.queue.push({ fault, left: fault.times ?? 1 });
  }

  /** The fault the next updates answer over `transport` should carry, if one is queued. */
  peek(transport: FaultTransport): UpdateFault | undefined {
    return this.queue.find((e) => appliesTo(e.fault, transport))?.fault;
  }

  /** Marks `fault` (as returned by {@link FaultQueue.peek}) as applied once. */
  consume(fault: UpdateFault): void {
    const i = this.queue.findIndex((e) => e.fault === fault);
    const entry = this.queue[i];
    if (!entry) return;
    entry.left -= 1;
    if (entry.left <= 0) this.queue.splice(i, 1);
  }
}
