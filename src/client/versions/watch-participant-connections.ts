import type { Dispatcher } from 'undici';

/** undici's errors for a connection it closed itself (keep-alive idle timeout, client close): not a loss. */
const ownCloseCodes = new Set(['UND_ERR_INFO', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/**
 * Calls `onLost` whenever a connection of `dispatcher` to `origin` could not be made, or was closed by the
 * other side or broke (not when undici closed an idle keep-alive connection itself): the participant may
 * have restarted, possibly on another version (docs/participant-versions.md). Returns the function that
 * stops watching.
 */
export function watchParticipantConnections(dispatcher: Dispatcher, origin: string, onLost: () => void): () => void {
  const ours = (o: unknown) => String(o instanceof URL ? o.origin : o) === origin;
  const onDisconnect = (o: unknown, _targets: unknown, error: { code?: unknown } | null | undefined) => {
    if (ours(o) && !ownCloseCodes.has(String(error?.code))) onLost();
  };
  const onConnectionError = (o: unknown) => {
    if (ours(o)) onLost();
  };
  dispatcher.on('disconnect', onDisconnect as never);
  dispatcher.on('connectionError', onConnectionError as never);
  return () => {
    dispatcher.off('disconnect', onDisconnect as never);
    dispatcher.off('connectionError', onConnectionError as never);
  };
}
