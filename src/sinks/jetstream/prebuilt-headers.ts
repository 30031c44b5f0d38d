import { Buffer } from 'node:buffer';
import type * as NatsCore from '@nats-io/nats-core';
import type { MsgHdrsImpl } from '@nats-io/nats-core';

/** Makes the headers of one message from `[name, value]` pairs (see {@link prebuiltHeaders}). */
export type HeadersMaker = (pairs: Iterable<readonly [string, string]>) => MsgHdrsImpl;

const lineBreak = /[\r\n]/;

/**
 * A maker of read-only NATS message headers for the publish hot path, on the client's own `MsgHdrsImpl`
 * (`nats` is the loaded `@nats-io/nats-core`): the header block (`NATS/1.0`, one `Name: value` line per
 * pair, a blank line) is written once as a string and `encode()` returns it as pooled UTF-8 bytes — the
 * same bytes `MsgHdrsImpl.encode()` produces, without `set()`'s per-name key searches and `TextEncoder`'s
 * new buffer per call. `get`/`has`/`keys` answer as usual; `set`, `append` and `delete` throw (the block is
 * already written). Names must be distinct tokens; a value is trimmed like `MsgHdrsImpl` does, and one
 * holding a line break throws a `TypeError`.
 */
export function prebuiltHeaders(nats: typeof NatsCore): HeadersMaker {
  class PrebuiltHeaders extends nats.MsgHdrsImpl {
    private readonly block: string;

    constructor(pairs: Iterable<readonly [string, string]>) {
      super();
      let block = 'NATS/1.0';
      for (const [name, raw] of pairs) {
        const value = raw.trim();
        if (lineBreak.test(value)) throw new TypeError(`header ${name}: a value cannot contain a line break`);
        block += `\r\n${name}: ${value}`;
        this.headers.set(name, [value]);
      }
      this.block = `${block}\r\n\r\n`;
    }

    override toString(): string {
      return this.block;
    }

    override encode(): Uint8Array {
      return Buffer.from(this.block, 'utf8');
    }

    override set(): void {
      throw new TypeError('prebuilt headers are read-only');
    }

    override append(): void {
      throw new TypeError('prebuilt headers are read-only');
    }

    override delete(): void {
      throw new TypeError('prebuilt headers are read-only');
    }
  }
  return (pairs) => new PrebuiltHeaders(pairs);
}
