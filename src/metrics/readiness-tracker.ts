import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { TailStatus } from '../operators/tail-status.js';

/** What the daemon is doing, as far as readiness goes (set by the command; the read's statuses move it on). */
export type ReadinessPhase = 'starting' | 'standby' | 'running' | 'stopping';

/** The answer of {@link ReadinessTracker.check}. */
export interface Readiness {
  readonly ready: boolean;
  /**
   * Why: `caught-up` or `progressing` (ready); `starting`, `standby` (waiting to take over), `stopping`,
   * `retrying` (requests keep failing), `stalled` (the position has not moved for the stall time while
   * the ledger end moved) otherwise.
   */
  readonly reason: 'caught-up' | 'progressing' | 'starting' | 'standby' | 'stopping' | 'retrying' | 'stalled';
  readonly position: number | undefined;
  readonly ledgerEnd: number | undefined;
  /** Seconds since the position last moved (since the read started, before it moved), to the millisecond. */
  readonly idleSeconds: number | undefined;
  /** Consecutive failed attempts, when retrying. */
  readonly failedAttempts: number;
}

/** Options of {@link ReadinessTracker}. */
export interface ReadinessOptions {
  /** Not ready once the position has not moved for this long while the ledger end moved, in ms. */
  readonly stallAfterMs: number;
  /** Not ready from this many consecutive failed attempts on (a single retried hiccup stays ready). Default 3. */
  readonly failuresBeforeUnready?: number;
  /** Clock in ms. Default `performance.now`. */
  readonly now?: () => number;
}

/**
 * The readiness of a daemon that reads the update stream (for `/readyz`): fed with the read's statuses
 * (`onStatus`), the ledger ends it polls (`observeLedgerEnd`) and its phase (`setPhase`), it answers
 * `check()` with ready = caught up, or making progress. Not ready while starting, as a standby, while
 * stopping, while retries are running out (from `failuresBeforeUnready` consecutive failures until a
 * request succeeds), and while stalled: the position has not moved for `stallAfterMs` although the ledger
 * end moved past it meanwhile. The first `resumed` status moves `starting` to `running`.
 */
export class ReadinessTracker {
  private readonly stallAfterMs: number;
  private readonly failuresBeforeUnready: number;
  private readonly now: () => number;
  private phase: ReadinessPhase = 'starting';
  private position: number | undefined;
  private ledgerEnd: number | undefined;
  /** When the position last moved (or the read started), and the ledger end known then. */
  private movedAt: number | undefined;
  private endAtMove: number | undefined;
  private failures = 0;

  constructor(options: ReadinessOptions) {
    if (!Number.isFinite(options.stallAfterMs) || options.stallAfterMs <= 0) throw new InvalidArgumentError('stallAfterMs', 'must be a positive number of milliseconds');
    this.stallAfterMs = options.stallAfterMs;
    this.failuresBeforeUnready = options.failuresBeforeUnready ?? 3;
    this.now = options.now ?? (() => performance.now());
  }

  /** Sets the phase (`running` restarts the stall clock). */
  setPhase(phase: ReadinessPhase): void {
    if (phase === 'running' && this.phase !== 'running') this.moved();
    this.phase = phase;
  }

  /** A bound status listener for the read's `onStatus`. */
  readonly onStatus = (status: TailStatus): void => {
    switch (status.type) {
      case 'resumed':
        if (this.phase === 'starting') this.setPhase('running');
        this.advance(status.fromOffset);
        break;
      case 'progress':
        this.advance(status.offset);
        break;
      case 'request':
        if (status.outcome === 'ok') this.failures = 0;
        break;
      case 'retrying':
        this.failures = status.attempt;
        break;
      case 'caught-up':
      case 'ledger-end':
        this.observeLedgerEnd(status.offset);
        break;
      default:
        break;
    }
  };

  /** Records the participant's ledger end. */
  observeLedgerEnd(offset: number): void {
    if (this.ledgerEnd === undefined || offset > this.ledgerEnd) {
      this.ledgerEnd = offset;
      this.endAtMove ??= offset;
    }
  }

  /** Whether the daemon is ready now, and why. */
  check(): Readiness {
    const idleMs = this.movedAt === undefined ? undefined : this.now() - this.movedAt;
    // rounded to the millisecond: /readyz shows 0.241, not 0.24122062000000005
    const idleSeconds = idleMs === undefined ? undefined : Math.round(idleMs) / 1000;
    const base = { position: this.position, ledgerEnd: this.ledgerEnd, idleSeconds, failedAttempts: this.failures };
    if (this.phase !== 'running') return { ...base, ready: false, reason: this.phase };
    if (this.failures >= this.failuresBeforeUnready) return { ...base, ready: false, reason: 'retrying' };
    const end = this.ledgerEnd;
    const behind = end !== undefined && (this.position === undefined || end > this.position);
    if (behind && idleMs !== undefined && idleMs >= this.stallAfterMs && end > (this.endAtMove ?? end)) {
      return { ...base, ready: false, reason: 'stalled' };
    }
    return { ...base, ready: true, reason: behind ? 'progressing' : 'caught-up' };
  }

  private advance(offset: number): void {
    if (this.position === undefined || offset > this.position) {
      this.position = offset;
      // the participant had at least this offset: a ledger end looked up earlier is behind it
      if (this.ledgerEnd !== undefined && offset > this.ledgerEnd) this.ledgerEnd = offset;
      this.failures = 0;
      this.moved();
    }
  }

  private moved(): void {
    this.movedAt = this.now();
    this.endAtMove = this.ledgerEnd;
  }
}
