import { VirtualTimeScheduler } from 'rxjs';

/**
 * A virtual clock for code that awaits promises between scheduled actions (an RxJS scheduler given to a
 * sink instead of `asyncScheduler`): `advance(ms)` runs every action due within the next `ms` of virtual
 * time in order, letting promise callbacks settle after each, so a retry loop of minutes runs at once.
 */
export class VirtualClock {
  readonly scheduler = new VirtualTimeScheduler();

  /** Virtual time now, in ms. */
  now(): number {
    return this.scheduler.now();
  }

  /** Runs what is due up to `now() + ms`, in time order, settling promises between actions; time then stands at that point. */
  async advance(ms: number): Promise<void> {
    const target = this.now() + ms;
    for (;;) {
      await settle();
      const next = this.scheduler.actions[0];
      if (next === undefined || next.delay > target) break;
      this.scheduler.maxFrames = next.delay;
      this.scheduler.flush();
    }
    this.scheduler.frame = target;
    await settle();
  }
}

/** Lets pending promise callbacks (and what they schedule in turn) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}
