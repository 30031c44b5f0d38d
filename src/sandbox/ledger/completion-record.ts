import type { SubmissionRecord } from './update-record.js';

/** The deduplication period a completion reports (the one the submission was deduplicated over). */
export type CompletionDeduplication =
  | { readonly kind: 'duration'; readonly seconds: number; readonly nanos: number }
  | { readonly kind: 'offset'; readonly offset: number }
  | { readonly kind: 'none' };

/** Why a command was rejected after it was accepted: a Canton error, as its completion's status carries it. */
export interface CompletionRejection {
  readonly code: string;
  readonly category: number;
  readonly cause: string;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: readonly (readonly [string, string])[];
}

/**
 * A command completion of the participant's completion log: the outcome of an accepted submission (a
 * command or a reassignment). An accepted one has the offset of its update; a rejected one has an offset
 * of its own, which no update carries (the ledger end moves past it).
 */
export interface CompletionRecord {
  readonly offset: number;
  readonly recordTimeMs: number;
  /** Index of the synchronizer it was sequenced on (or routed to). */
  readonly synchronizer: number;
  readonly submission: SubmissionRecord;
  readonly deduplication: CompletionDeduplication;
  /** `undefined` for an accepted command (its update is at `offset`). */
  readonly rejection: CompletionRejection | undefined;
}
