import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';

/**
 * Chooses the synchronizer a vetting update applies to (docs/server-behavior.md#vetting-update-order step 4), among the
 * synchronizers the participant is connected to:
 * - `requested` given: it must be connected, else `PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER` (400,
 *   context `synchronizerId`; the cause speaks of uploading a dar, as the server's does);
 * - `requested` absent: the only connected synchronizer; with none or several,
 *   `PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER` (400) whose cause lists them, with a `synchronizers`
 *   context key (`List(<id>, …)`, the Scala rendering).
 */
export function selectVettingSynchronizer(state: ParticipantState, requested: string | undefined): string {
  const connected = state.synchronizers.filter((s) => s.connected).map((s) => s.id);
  if (requested !== undefined) {
    if (connected.includes(requested)) return requested;
    throw SandboxError.grpc(
      ErrorDefs.PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER,
      `Cannot upload a dar because the participant is not connected to synchronizer '${requested}'.`,
      { context: { synchronizerId: requested } },
    );
  }
  const only = connected.length === 1 ? connected[0] : undefined;
  if (only !== undefined) return only;
  const detail = connected.length === 0 ? 'no synchronizers currently connected' : `currently connected synchronizers ${connected.join(', ')}`;
  throw SandboxError.grpc(ErrorDefs.PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER, `Cannot autodetect synchronizer: ${detail}`, {
    context: { synchronizers: `List(${connected.join(', ')})` },
  });
}
