import { ErrorCodes, TransportError } from '../../errors/index.js';

/**
 * What a WebSocket update stream closing means, when no error frame came first: a bounded read
 * (`endInclusive` set) that the server closed normally (1000) is complete; any other close — of a bounded
 * read with another code (1001 going away, 1006 lost, 1011 server error, ...), or of an open-ended read
 * with any code, since an open-ended stream never ends by itself — is a retryable `TransportError`
 * `CONNECTION_RESET` naming the code and reason (`closeCode` on the error). Pure.
 *
 * @returns `undefined` for completion, else the error.
 */
export function streamCloseOutcome(code: number, reason: string, bounded: boolean, request: string): TransportError | undefined {
  if (bounded && code === 1000) return undefined;
  const why = reason === '' ? '' : `: ${reason}`;
  const what = bounded ? 'the stream was closed before it ended' : 'an open-ended stream was closed';
  return new TransportError(ErrorCodes.CONNECTION_RESET, `${request}: ${what} (close code ${code}${why})`, { request, closeCode: code });
}
