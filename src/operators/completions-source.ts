import type { Observable, ObservableInput } from 'rxjs';
import type { Transport } from '../updates/transport.js';
import type { UpdatesOptions } from '../updates/updates-options.js';
import type { CompletionStreamRequest, CompletionStreamResponse, GetCompletionsRequest, GetLedgerEndResponse, JsCommands } from '../schemas/index.js';

/** The options the operators pass to {@link CompletionsSource.completions} (a subset of the client's). */
export interface CompletionsReadOptions extends Pick<UpdatesOptions, 'limit' | 'streamIdleTimeoutMs' | 'validate' | 'rawText'> {
  readonly endpoint?: 'command-completions' | 'completions';
  readonly transport?: Extract<Transport, 'websocket' | 'list'>;
}

/**
 * What `tailCompletions` needs from a client: one read of completions (`LedgerClient.completions`: a WebSocket
 * stream, or one list) as a cold Observable (unsubscribing aborts it), and the ledger end.
 */
export interface CompletionsSource {
  /**
   * `true` when every answer of `completions()` is already checked against its request's offsets (as
   * `LedgerClient`'s are): `tailCompletions` then trusts it; left out, the tail checks each answer itself.
   */
  readonly checksElementOrder?: boolean;
  completions(request: GetCompletionsRequest | CompletionStreamRequest, options?: CompletionsReadOptions): Observable<CompletionStreamResponse>;
  ledgerEnd(): ObservableInput<GetLedgerEndResponse>;
}

/**
 * What `trackCommands` and `submitAndTrack` need from a client: completions and the ledger end, and
 * `POST /v2/commands/async/submit` (`LedgerClient.submit`).
 */
export interface CommandSource extends CompletionsSource {
  submit(commands: JsCommands): ObservableInput<unknown>;
}
