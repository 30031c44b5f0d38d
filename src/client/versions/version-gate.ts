import { UnsupportedByParticipantVersionError } from '../../errors/unsupported-by-participant-version-error.js';
import { compareVersionNumbers, parseParticipantVersion, type ParticipantVersion } from './participant-version.js';
import { participantVersionTable, type VersionedOperationName } from './participant-version-table.js';

/** Reads the participant's version string (`GET /v2/version`), honouring the caller's abort signal. */
export type ReadVersion = (signal: AbortSignal | undefined) => Promise<string>;

/**
 * The client's knowledge of the participant's version: read once with `GET /v2/version` on the first
 * operation that needs it, kept until {@link VersionGate.invalidate} (the client calls it when a connection
 * to the participant was lost or could not be made, so a participant restarted on another version is read
 * again), or given once and for all (`participantVersion` option).
 */
export interface VersionGate {
  /** The participant's version (read at most once until invalidated; a failed read is not kept). */
  version(signal?: AbortSignal): Promise<ParticipantVersion>;
  /** True when the participant's version has `operation` (an unreadable version string: assumed to have it). */
  supports(operation: VersionedOperationName, signal?: AbortSignal): Promise<boolean>;
  /**
   * Resolves when the participant has `operation`; otherwise rejects with
   * `UnsupportedByParticipantVersionError` (naming the version and the alternative) and nothing else is sent.
   */
  require(operation: VersionedOperationName, clientOperation: string, signal?: AbortSignal): Promise<void>;
  /** Forgets the version read, so the next operation that needs it reads it again. */
  invalidate(): void;
}

function toNumbers(version: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return [major, minor, patch];
}

/** True when `version` has `operation` according to {@link participantVersionTable}. */
export function versionSupports(version: ParticipantVersion, operation: VersionedOperationName): boolean {
  const numbers = version.numbers;
  if (numbers === undefined) return true; // a build we cannot read: let the participant answer
  const row: { since?: string; until?: string } = participantVersionTable[operation];
  if (row.since !== undefined && compareVersionNumbers(numbers, toNumbers(row.since)) < 0) return false;
  if (row.until !== undefined && compareVersionNumbers(numbers, toNumbers(row.until)) >= 0) return false;
  return true;
}

function availableIn(operation: VersionedOperationName): string {
  const row: { since?: string; until?: string } = participantVersionTable[operation];
  if (row.since !== undefined && row.until !== undefined) return `${row.since} up to before ${row.until}`;
  if (row.since !== undefined) return `${row.since} and later`;
  return `versions before ${row.until ?? ''}`;
}

/** Builds the gate over `read`; with `known`, the version is that string and nothing is read. */
export function createVersionGate(read: ReadVersion, known?: string): VersionGate {
  let cached: Promise<ParticipantVersion> | undefined = known === undefined ? undefined : Promise.resolve(parseParticipantVersion(known));
  const gate: VersionGate = {
    version(signal) {
      if (cached) return cached;
      const reading = read(signal).then(parseParticipantVersion);
      cached = reading;
      reading.catch(() => {
        if (cached === reading) cached = undefined;
      });
      return reading;
    },
    async supports(operation, signal) {
      return versionSupports(await gate.version(signal), operation);
    },
    async require(operation, clientOperation, signal) {
      const version = await gate.version(signal);
      if (versionSupports(version, operation)) return;
      const row = participantVersionTable[operation];
      throw new UnsupportedByParticipantVersionError({
        operation: clientOperation,
        endpoint: row.endpoint,
        participantVersion: version.text,
        availableIn: availableIn(operation),
        alternative: row.alternative,
      });
    },
    invalidate() {
      if (known === undefined) cached = undefined;
    },
  };
  return gate;
}
