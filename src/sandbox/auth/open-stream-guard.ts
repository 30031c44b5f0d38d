import type { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import type { Claims } from './claims.js';
import { StreamAuthorization } from './stream-authorization.js';

/** An open stream under ongoing authorization, as `Sandbox.openStreams()` lists it. */
export interface OpenStreamInfo {
  /** `http`: a list answer being collected (`POST /v2/updates`, ...); `websocket`: a WebSocket stream. */
  readonly transport: 'http' | 'websocket';
  /** The endpoint, e.g. `/v2/updates`. */
  readonly path: string;
  /** The user of the stream's token (`undefined` when auth is off). */
  readonly userId: string | undefined;
}

/** The ongoing authorization of one stream, as the reading code sees it. */
export interface StreamGuard {
  /** Aborted when `parent` aborts, or when the user's rights changed (then `failure` says so). */
  readonly signal: AbortSignal;
  /** Call before handing out an element; throws `ACCESS_TOKEN_EXPIRED` once the token expired. */
  beforeElement(): void;
  /** `STALE_STREAM_AUTHORIZATION` when the rights check ended the stream, else `undefined`. */
  readonly failure: SandboxError | undefined;
  /** Stops the rights check (call when the stream ends, however it ends). */
  close(): void;
}

/**
 * Opens the {@link StreamAuthorization} of a stream read with `claims`, with the participant's settings
 * (`userRightsCheckIntervalMs`, `tokenExpiryGracePeriodMs`): every stream endpoint (HTTP lists and
 * WebSocket channels) reads through one, so token expiry and rights changes end them all alike. The
 * stream (`stream`: its transport and endpoint) is listed in `state.openStreams` until {@link StreamGuard.close}.
 */
export function openStreamGuard(state: ParticipantState, claims: Claims, parent: AbortSignal, stream: Omit<OpenStreamInfo, 'userId'>): StreamGuard {
  const auth = new StreamAuthorization(claims, state.users, {
    rightsCheckIntervalMs: state.options.userRightsCheckIntervalMs,
    expiryGraceMs: state.options.tokenExpiryGracePeriodMs,
  });
  const controller = new AbortController();
  let failure: SandboxError | undefined;
  const onParent = () => controller.abort(parent.reason);
  if (parent.aborted) onParent();
  else parent.addEventListener('abort', onParent, { once: true });
  const stop = auth.watchRights((error) => {
    failure = error;
    controller.abort(error);
  });
  const open: OpenStreamInfo = { ...stream, userId: claims.userId };
  state.openStreams.add(open);
  return {
    signal: controller.signal,
    beforeElement: () => auth.beforeElement(),
    get failure() {
      return failure;
    },
    close() {
      stop();
      state.openStreams.delete(open);
      parent.removeEventListener('abort', onParent);
    },
  };
}
