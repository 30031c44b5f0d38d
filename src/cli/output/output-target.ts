import type { Writable } from 'node:stream';

/** Where a command writes its data: a stream, how to make it durable, and how to finish it. */
export interface OutputTarget {
  readonly stream: Writable;
  /** Makes what was written durable (fsync of a file); a no-op for pipes and terminals. */
  sync(): Promise<void>;
  /** Ends the stream (a file is closed; stdout is left open) once everything written is flushed. */
  close(): Promise<void>;
}
