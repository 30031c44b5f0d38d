import { jsonVerifier } from 'stream-json/core/utils/verifier.js';

/** Where and why a JSON text is malformed: `charOffset` counts UTF-16 code units from the start of the text. */
export interface JsonSyntaxIssue {
  readonly message: string;
  readonly charOffset: number;
}

/** stream-chain's `none`, the value that flushes a stage; registered with `Symbol.for`, so no import is needed. */
const FLUSH = Symbol.for('object-stream.none');

type TextStage = (chunk: string | symbol) => unknown;

/**
 * Validates JSON text fed in pieces, with stream-json's verifier, to find the exact position and cause of a
 * syntax error (`JSON.parse` only says that the text is bad). Holds at most a few characters of the text.
 *
 * `write` and `end` return the first problem found, or `undefined`; after a problem the verifier is spent.
 * `end()` reports text that stops before the value is complete.
 */
export class IncrementalJsonVerifier {
  private readonly stage = jsonVerifier() as unknown as TextStage;

  /** Feeds more text; returns the problem if the text so far cannot be the start of one JSON value. */
  write(text: string): JsonSyntaxIssue | undefined {
    return this.run(text);
  }

  /** Declares the end of the text; returns the problem if the text is not exactly one JSON value. */
  end(): JsonSyntaxIssue | undefined {
    return this.run(FLUSH);
  }

  /** Verifies a whole text in one call. */
  static verify(text: string): JsonSyntaxIssue | undefined {
    const verifier = new IncrementalJsonVerifier();
    return verifier.write(text) ?? verifier.end();
  }

  private run(chunk: string | symbol): JsonSyntaxIssue | undefined {
    try {
      this.stage(chunk);
      return undefined;
    } catch (error) {
      return toIssue(error);
    }
  }
}

function toIssue(error: unknown): JsonSyntaxIssue {
  const offset = (error as { offset?: unknown } | null)?.offset;
  const raw = error instanceof Error ? error.message : String(error);
  // "ERROR at 12 (1, 13): Verifier cannot parse input: expected a value" → "expected a value"
  const message = raw
    .replace(/^ERROR at \d+ \(\d+, \d+\): /, '')
    .replace(/^Verifier cannot parse input: /, '')
    .replace(/^Verifier has /, '');
  return { message, charOffset: typeof offset === 'number' ? offset : 0 };
}
