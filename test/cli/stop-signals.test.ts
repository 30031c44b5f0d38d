import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortableSleep } from '../../src/cli/process/abortable-sleep.js';
import { listenForStopSignals } from '../../src/cli/process/listen-for-stop-signals.js';
import type { Logger } from '../../src/cli/log/logger.js';
import { StopRequested } from '../../src/cli/process/stop-requested.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('listenForStopSignals', () => {
  it('a subscriber that comes after the signal still sees the stop (a read that starts late)', () => {
    const signals = new EventEmitter();
    const stops = listenForStopSignals(signals, quiet, () => undefined);
    signals.emit('SIGTERM');
    const seen: string[] = [];
    let completed = false;
    stops.stop$.subscribe({ next: (s) => seen.push(s), complete: () => (completed = true) });
    expect(seen).toEqual(['SIGTERM']);
    expect(completed).toBe(true);
    expect(stops.stopped).toBe(true);
    expect(stops.signal.aborted).toBe(true);
    expect(() => stops.throwIfStopped()).toThrow(StopRequested);
    stops.dispose();
  });

  it('a second signal forces the exit; dispose removes the listeners', () => {
    const signals = new EventEmitter();
    let forced = 0;
    const stops = listenForStopSignals(signals, quiet, () => forced++);
    signals.emit('SIGINT');
    expect(forced).toBe(0);
    signals.emit('SIGINT');
    expect(forced).toBe(1);
    stops.dispose();
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
  });

  it('race: resolves like the work, or rejects with StopRequested at the stop and disposes of a late result', async () => {
    const signals = new EventEmitter();
    const stops = listenForStopSignals(signals, quiet, () => undefined);
    expect(await stops.race(Promise.resolve(7))).toBe(7);
    await expect(stops.race(Promise.reject(new Error('boom')))).rejects.toThrow('boom');

    let finish: (v: string) => void = () => undefined;
    const disposed: string[] = [];
    const pending = stops.race(new Promise<string>((r) => (finish = r)), (late) => disposed.push(late));
    signals.emit('SIGTERM');
    await expect(pending).rejects.toBeInstanceOf(StopRequested);
    finish('connection');
    await new Promise((r) => setImmediate(r));
    expect(disposed).toEqual(['connection']);

    const after: number[] = [];
    await expect(stops.race(Promise.resolve(1), (late) => after.push(late))).rejects.toBeInstanceOf(StopRequested);
    await new Promise((r) => setImmediate(r));
    expect(after).toEqual([1]);
    stops.dispose();
  });
});

describe('abortableSleep', () => {
  it('resolves after the delay, or rejects at once when the signal aborts', async () => {
    await abortableSleep(1);
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new StopRequested());
    await expect(sleeping).rejects.toBeInstanceOf(StopRequested);
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(abortableSleep(1, controller.signal)).rejects.toBeInstanceOf(StopRequested);
  });
});
