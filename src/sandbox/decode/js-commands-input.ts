/**
 * What `Sandbox.submit` takes: a `JsCommands` request body as plain JSON, the same object a client
 * posts to `POST /v2/commands/async/submit`. Only the three fields the server requires are spelled out
 * (each command is a single-key object such as `{ "CreateCommand": { ... } }`); everything else is
 * checked by the sandbox's own decoder, exactly as for the route, so a client's typed request object is
 * accepted as is.
 */
export interface JsCommandsInput {
  readonly commands: readonly object[];
  readonly commandId: string;
  readonly actAs: readonly string[];
  /** Defaults to `participant_admin` in process. */
  readonly userId?: string | null | undefined;
  readonly [field: string]: unknown;
}
