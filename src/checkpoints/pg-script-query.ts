import type { Connection, Submittable } from 'pg';
import type { SqlScriptStep } from './sql-database.js';

/** The parts of pg's `Connection` a script uses (its COPY messages are not in `@types/pg`). */
interface CopyConnection {
  readonly stream: { readonly writable: boolean; write(data: Uint8Array): boolean; cork?: () => void; uncork?: () => void };
  query(text: string): void;
  endCopyFrom(): void;
}

/** The type byte of a `CopyData` message. */
const copyData = 0x64;

/**
 * A pg query (a `Submittable`, which pg's `client.query` accepts beside its own queries) that sends a whole
 * {@link SqlScriptStep} script at once (docs/ingest.md, "One round trip per batch"): ONE simple-protocol `Query`
 * message with `BEGIN`, the steps' statements and `COMMIT` separated by semicolons, followed at once by the data of
 * every COPY step (`CopyData` messages, each the step's chunk as it is behind a five-byte header, and a `CopyDone`
 * each), without waiting for the server's `CopyInResponse`.
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
        for (const chunk of data) {
          // a CopyData message: its header, then the chunk as it is (pg's `sendCopyFromChunk` would copy it into a
          // new buffer first); the corked stream sends them together. Nothing is written once the stream is not
          // writable, as pg does: the connection's error settles the script.
          if (!c.stream.writable) break;
          const header = Buffer.allocUnsafe(5);
          header[0] = copyData;
          header.writeUInt32BE(chunk.byteLength + 4, 1);
          c.stream.write(header);
          c.stream.write(chunk);
        }
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
