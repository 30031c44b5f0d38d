import { describe, expect, it } from 'vitest';
import { nextTailState, type TailPage, type TailStep } from '../../src/operators/internal/next-tail-state.js';
import { initialTailState, type TailSettings, type TailState } from '../../src/operators/internal/tail-state.js';

const settings: TailSettings = { pageLimit: 200, idle: 20, longPoll: 5_000, targetLatency: 50 };
const start = initialTailState(100, settings);
const catchUp = (extra: Partial<TailState> = {}): TailState => ({ ...start, ...extra });
const live = (extra: Partial<TailState> = {}): TailState => ({ ...start, mode: 'live', caughtUp: true, ...extra });
const page = (received: number, asked: number, durationMs: number, bounded = false, ledgerEnd?: number): TailPage => ({ received, asked, durationMs, bounded, ledgerEnd });

describe('initialTailState', () => {
  it('starts catching up from the cursor with a small page (never above pageLimit) and the configured idle timeout', () => {
    expect(start).toEqual({
      cursor: 100,
      atCheckpoint: false,
      mode: 'catch-up',
      caughtUp: false,
      limit: 8,
      idle: 20,
      checkLedgerEnd: false,
      missedUpTo: undefined,
      strikes: 0,
      checkIn: 0,
      checkGap: 0,
      firstElementMs: 0,
    });
    expect(initialTailState(0, { ...settings, pageLimit: 3 }).limit).toBe(3);
  });
});

describe('nextTailState', () => {
  it.each<[string, TailState, TailPage, TailStep]>([
    ['bounded, short: complete', catchUp(), page(3, 8, 10, true), { state: null }],
    ['bounded, full: go on as is', catchUp(), page(8, 8, 10, true), { state: catchUp() }],
    ['long poll idled out: stay live, learnt idle timeout starts over', live({ idle: 80, strikes: 2, firstElementMs: 300, missedUpTo: 90 }), page(0, 1, 5_000), { state: live({ idle: 20, strikes: 0, firstElementMs: 0 }) }],
    ['long poll answered with the checkpoint at the cursor (skipped): quiet, stay live, no check, no strike', live({ idle: 80, strikes: 2, firstElementMs: 300, missedUpTo: 100 }), { ...page(1, 1, 500), advanced: false }, { state: live({ idle: 20, strikes: 0, firstElementMs: 0 }) }],
    ['long poll brought one: catch up from a small page, checked', live({ limit: 150 }), page(1, 1, 37), { state: catchUp({ caughtUp: true, checkLedgerEnd: true }) }],
    ['long poll brought one, page already small', live({ limit: 3 }), page(1, 1, 37), { state: catchUp({ caughtUp: true, limit: 3, checkLedgerEnd: true }) }],
    ['long poll brought one while the checks back off: one less to wait', live({ checkIn: 2, checkGap: 4 }), page(1, 1, 37), { state: catchUp({ caughtUp: true, checkIn: 1, checkGap: 4 }) }],
    ['long poll brought one, the wait over: checked', live({ checkIn: 1, checkGap: 4 }), page(1, 1, 37), { state: catchUp({ caughtUp: true, checkGap: 4, checkLedgerEnd: true }) }],
    ['empty checked catch-up page: long poll, remembering the ledger end', catchUp({ caughtUp: true, checkLedgerEnd: true }), page(0, 8, 20, false, 140), { state: live({ missedUpTo: 140 }) }],
    ['empty catch-up page not checked: nothing remembered', catchUp({ caughtUp: true }), page(0, 8, 20, false, 140), { state: live() }],
    ['checked catch-up page with elements: strikes cleared', catchUp({ caughtUp: true, checkLedgerEnd: true, strikes: 2 }), page(3, 8, 20, false, 140), { state: live() }],
    ['long poll brought an update at or below it: a strike (the page missed it)', live({ missedUpTo: 140, cursor: 140 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, cursor: 140, strikes: 1, checkLedgerEnd: true }) }],
    ['a strike checks every long poll again', live({ missedUpTo: 140, checkGap: 8 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, strikes: 1, checkLedgerEnd: true }) }],
    ['the third strike doubles the idle timeout', live({ missedUpTo: 140, strikes: 2 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, idle: 40, firstElementMs: 30, checkLedgerEnd: true }), status: { type: 'idle-timeout-raised', from: 20, to: 40 } }],
    ['the raised idle timeout stops at longPoll, and the checks with it', live({ missedUpTo: 140, strikes: 2, idle: 4_000 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, idle: 5_000, firstElementMs: 30 }), status: { type: 'idle-timeout-raised', from: 4_000, to: 5_000 } }],
    ['no check at longPoll', live({ idle: 5_000 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, idle: 5_000 }) }],
    ['long poll brought a newer update: live, no strike, the checks back off', live({ missedUpTo: 99, strikes: 2 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, checkIn: 1, checkGap: 1 }) }],
    ['the back-off doubles', live({ missedUpTo: 99, checkGap: 4 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, checkIn: 8, checkGap: 8 }) }],
    ['the back-off stops at 16', live({ missedUpTo: 99, checkGap: 16 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, checkIn: 16, checkGap: 16 }) }],
    ['long poll brought a checkpoint: no proof either way', live({ missedUpTo: 140, atCheckpoint: true, strikes: 1 }), page(1, 1, 30), { state: catchUp({ caughtUp: true, atCheckpoint: true, strikes: 1, checkLedgerEnd: true }) }],
    ['full page filling slower than the target: smaller', catchUp({ limit: 100 }), page(100, 100, 200), { state: catchUp({ limit: 25 }) }],
    ['full page, a known slow first element does not count', catchUp({ limit: 100, firstElementMs: 180 }), page(100, 100, 210), { state: catchUp({ limit: 100, firstElementMs: 180 }) }],
    ['full page filling fast: twice as large, behind again', catchUp({ caughtUp: true, limit: 100 }), page(100, 100, 10), { state: catchUp({ limit: 200 }) }],
    ['full page filling fast: not above pageLimit', catchUp({ limit: 150 }), page(150, 150, 10), { state: catchUp({ limit: 200 }) }],
    ['full page in between: as is (strikes cleared)', catchUp({ limit: 100, strikes: 1 }), page(100, 100, 40), { state: catchUp({ limit: 100 }) }],
    ['short page: caught up, reported once', catchUp(), page(3, 8, 20), { state: live(), status: { type: 'caught-up', offset: 100 } }],
    ['short page when already caught up: no report', catchUp({ caughtUp: true }), page(3, 8, 20), { state: live() }],
    ['empty page without a long poll before it: caught up', catchUp(), page(0, 8, 20), { state: live(), status: { type: 'caught-up', offset: 100 } }],
  ])('%s', (_name, state, p, expected) => {
    expect(nextTailState(state, p, settings)).toEqual(expected);
  });
});
