import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { rightKey, type UsersStore } from '../state/users-store.js';
import type { Claims } from './claims.js';

/** The settings of {@link StreamAuthorization}. */
export interface StreamAuthorizationOptions {
  /** How often the user's rights are read again. */
  readonly rightsCheckIntervalMs: number;
  /** How long past `exp` the stream may still deliver. */
  readonly expiryGraceMs: number;
}

function fingerprint(users: UsersStore, userId: string): string | undefined {
  const user = users.get(userId);
  if (!user || user.isDeactivated) return undefined;
  const rights = [...user.rights.values()].map(rightKey).sort();
  return JSON.stringify([user.identityProviderId, rights]);
}

/**
 * The participant's ongoing authorization of one open stream, for claims resolved from a user token
 * (Canton's `UserBasedOngoingAuthorization`; see docs/websocket-protocol.md):
 *
 * - {@link StreamAuthorization.beforeElement}: before each element is handed out, a token whose `exp`
 *   (plus the grace period) has passed ends the stream with `ACCESS_TOKEN_EXPIRED` (category 2, "JWT token
 *   has expired"). An idle stream is not ended until its next element, checkpoints included.
 * - {@link StreamAuthorization.watchRights}: every `rightsCheckIntervalMs` the user is read again; when its
 *   rights, its identity provider or its deactivation changed, or it was deleted, `onStale` receives
 *   `STALE_STREAM_AUTHORIZATION` (category 2, "Stale stream authorization. Retry quickly.") once.
 *
 * Both errors tell the client to resume at once with a fresh token. Claims without a user (auth off)
 * are never checked.
 */
export class StreamAuthorization {
  private readonly original: string | undefined;

  constructor(
    private readonly claims: Claims,
    private readonly users: UsersStore,
    private readonly options: StreamAuthorizationOptions,
  ) {
    this.original = claims.userId === undefined ? undefined : fingerprint(users, claims.userId);
  }

  /** Throws `ACCESS_TOKEN_EXPIRED` when the token expired (beyond the grace period). */
  beforeElement(): void {
    const exp = this.claims.expiresAtMs;
    if (exp !== undefined && Date.now() - this.options.expiryGraceMs >= exp) {
      throw SandboxError.grpc(ErrorDefs.ACCESS_TOKEN_EXPIRED, 'JWT token has expired');
    }
  }

  /** Starts the periodic rights check; returns the function that stops it. */
  watchRights(onStale: (error: SandboxError) => void): () => void {
    const userId = this.claims.userId;
    if (userId === undefined) return () => {};
    const timer = setInterval(() => {
      if (fingerprint(this.users, userId) === this.original) return;
      clearInterval(timer);
      onStale(SandboxError.grpc(ErrorDefs.STALE_STREAM_AUTHORIZATION, 'Stale stream authorization. Retry quickly.'));
    }, this.options.rightsCheckIntervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
