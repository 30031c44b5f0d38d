/** A participant's version as `GET /v2/version` reports it, with its numbers read. */
export interface ParticipantVersion {
  /** The reported string (`3.5.10`, `3.4.12-SNAPSHOT`, `3.6.0-ad-hoc.…`). */
  readonly text: string;
  /** `[major, minor, patch]`, or `undefined` when the string does not start with three numbers. */
  readonly numbers: readonly [number, number, number] | undefined;
}

/**
 * Reads a version string: the first three dot-separated numbers, any suffix ignored. A snapshot build
 * (`3.4.12-SNAPSHOT`) counts as its version: it is built from the branch that becomes that release
 * (docs/participant-versions.md).
 */
export function parseParticipantVersion(text: string): ParticipantVersion {
  const m = /^(\d+)\.(\d+)\.(\d+)(?![\d])/.exec(text.trim());
  return { text, numbers: m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined };
}

/** Negative, zero or positive as `a` is below, equal to or above `b`. */
export function compareVersionNumbers(a: readonly [number, number, number], b: readonly [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
