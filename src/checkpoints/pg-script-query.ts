import type { Connection, Submittable } from 'pg';
import type { SqlScriptStep } from './sql-database.js';

/** The parts of pg's `Connection` a script uses (its COPY messages are not in `@types/pg`). */
interface CopyConnection {
  readonly stream: { cork?: () => void; uncork?: () => void };
  query(text: string): void;
  sendCopyFromChunk(chunk: Uint8Array): void;
  endCopyFrom(): void;
}

/**
 * A pg query (a `Submittable`, which pg's `client.query` accepts beside its own queries) that sends a whole
 * {@link SqlScriptStep} script at once (docs/ingest.md, "One round trip per batch"): ONE simple-protocol `Query`
 * message with `BEGIN`, the steps' statements and `COMMIT` separated by semicolons, followed at once by the data of
 * every COPY step (`CopyData` messages and a `CopyDone` each), without waiting for the server's `CopyInResponse`.
 * PostgreSQL runs the statements in order and reads each COPY's data when it reaches it. When a statement fails,
 * the server skips the rest of the text, answers the error, and ignores the COPY messages still to come (the
 * protocol has it accept and ignore them outside a COPY); the transaction is then left aborted, and the caller
 * sends `ROLLBACK`. So a script costs one round trip, and a failure leaves the connection usable.
 *
 * Settles once, when the server is ready for the next query: resolved after `COMMIT`, rejected with the first
 * error (pg's `DatabaseError`, with its `code` and `detail`), or with the connection's error when it is lost.
 */
export class PgScriptQuery implements Submittable {
  private readonly text: string;
  private readonly copies: readonly (readonly Uint8Array[])[];
  private settled = false;
  private readonly settle: (error: unknown) => void;

  constructor(steps: readonly SqlScriptStep[], settle: (error: unknown) => void) {
    this.text = ['BEGIN', ...steps.map((s) => ('sql' in s ? s.sql : s.copy)), 'COMMIT'].join(';\n');
    this.copies = steps.flatMap((s) => ('copy' in s ? [s.data] : []));
    this.settle = settle;
  }

  submit(connection: Connection): void {
    const c = connection as unknown as CopyConnection;
    c.stream.cork?.();
    try {
      c.query(this.text);
      for (const data of this.copies) {
        for (const chunk of data) c.sendCopyFromChunk(chunk);
        c.endCopyFrom();
      }
    } finally {
      c.stream.uncork?.();
    }
  }

  handleError(error: unknown): void {
    this.done(error);
  }

  handleReadyForQuery(): void {
    this.done(undefined);
  }

  // the statements' own answers (rows, completions, the COPY handshakes) carry nothing the script needs
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}

  private done(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(error);
  }
}
