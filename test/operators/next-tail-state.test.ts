import { describe, expect, it } from 'vitest';
import { nextTailState, type TailPage, type TailStep } from '../../src/operators/internal/next-tail-state.js';
import { initialTailState, type TailSettings, type TailState } from '../../src/operators/internal/tail-state.js';

const settings: TailSettings = { pageLimit: 200, idle: 20, longPoll: 5_000, targetLatency: 50 };
const start = initialTailState(100, settings);
const catchUp = (extra: Partial<TailState> = {}): TailState => ({ ...start, ...extra });
const live = (extra: Partial<TailState> = {}): TailState => ({ ...start, mode: 'live', caughtUp: true, ...extra });
const page = (received: number, asked: number, durationMs: number, bounded = false): TailPage => ({ received, asked, durationMs, bounded });

describe('initialTailState', () => {
  it('starts catching up from the cursor with a small page (never above pageLimit) and the configured idle timeout', () => {
    expect(start).toEqual({ cursor: 100, mode: 'catch-up', caughtUp: false, limit: 8, idle: 20, lastLiveMs: undefined, strikes: 0, firstElementMs: 0 });
    expect(initialTailState(0, { ...settings, pageLimit: 3 }).limit).toBe(3);
  });
});

describe('nextTailState', () => {
  it.each<[string, TailState, TailPage, TailStep]>([
    ['bounded, short: complete', catchUp(), page(3, 8, 10, true), { state: null }],
    ['bounded, full: go on as is', catchUp(), page(8, 8, 10, true), { state: catchUp() }],
    ['long poll idled out: stay live, learnt idle timeout starts over', live({ idle: 80, strikes: 2, firstElementMs: 300 }), page(0, 1, 5_000), { state: live({ idle: 20, strikes: 0, firstElementMs: 0 }) }],
    ['long poll brought one: catch up from a small page, remember its time', live({ limit: 150 }), page(1, 1, 37), { state: live({ mode: 'catch-up', limit: 8, lastLiveMs: 37 }) }],
    ['long poll brought one, page already small', live({ limit: 3 }), page(1, 1, 37), { state: live({ mode: 'catch-up', limit: 3, lastLiveMs: 37 }) }],
    ['empty catch-up after a quick long poll: a strike, long poll again', catchUp({ caughtUp: true, lastLiveMs: 30 }), page(0, 8, 20), { state: live({ strikes: 1 }) }],
    ['the third strike doubles the idle timeout', catchUp({ caughtUp: true, lastLiveMs: 30, strikes: 2 }), page(0, 8, 20), { state: live({ idle: 40, firstElementMs: 30 }), status: { type: 'idle-timeout-raised', from: 20, to: 40 } }],
    ['the raised idle timeout stops at longPoll', catchUp({ caughtUp: true, lastLiveMs: 30, strikes: 2, idle: 4_000 }), page(0, 8, 20), { state: live({ idle: 5_000, firstElementMs: 30 }), status: { type: 'idle-timeout-raised', from: 4_000, to: 5_000 } }],
    ['no strike at longPoll already', catchUp({ caughtUp: true, lastLiveMs: 30, idle: 5_000 }), page(0, 8, 20), { state: live({ idle: 5_000, lastLiveMs: 30 }) }],
    ['no strike after a slow long poll (over 250 ms and 4 × idle): caught up', catchUp({ caughtUp: true, lastLiveMs: 300 }), page(0, 8, 20), { state: live({ lastLiveMs: 300 }) }],
    ['a strike after a long poll under 4 × a large idle timeout', catchUp({ caughtUp: true, lastLiveMs: 300, idle: 100 }), page(0, 8, 20), { state: live({ idle: 100, strikes: 1 }) }],
    ['full page filling slower than the target: smaller', catchUp({ limit: 100 }), page(100, 100, 200), { state: catchUp({ limit: 25 }) }],
    ['full page, a known slow first element does not count', catchUp({ limit: 100, firstElementMs: 180 }), page(100, 100, 210), { state: catchUp({ limit: 100, firstElementMs: 180 }) }],
    ['full page filling fast: twice as large, behind again', catchUp({ caughtUp: true, limit: 100 }), page(100, 100, 10), { state: catchUp({ limit: 200 }) }],
    ['full page filling fast: not above pageLimit', catchUp({ limit: 150 }), page(150, 150, 10), { state: catchUp({ limit: 200 }) }],
    ['full page in between: as is (strikes and long-poll time cleared)', catchUp({ limit: 100, strikes: 1, lastLiveMs: 30 }), page(100, 100, 40), { state: catchUp({ limit: 100 }) }],
    ['short page: caught up, reported once', catchUp(), page(3, 8, 20), { state: live(), status: { type: 'caught-up', offset: 100 } }],
    ['short page when already caught up: no report', catchUp({ caughtUp: true }), page(3, 8, 20), { state: live() }],
    ['empty page without a long poll before it: caught up', catchUp(), page(0, 8, 20), { state: live(), status: { type: 'caught-up', offset: 100 } }],
  ])('%s', (_name, state, p, expected) => {
    expect(nextTailState(state, p, settings)).toEqual(expected);
  });
});
