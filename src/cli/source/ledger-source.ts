import type { LedgerClient } from '../../client/ledger-client.js';

/** An opened source (see `openLedgerSource`): a client, and what to close when done. */
export interface LedgerSource {
  readonly client: LedgerClient;
  /** The participant's base URL (the sandbox's, with `--sandbox`). */
  readonly url: string;
  /** Whether the embedded sandbox was started for this source. */
  readonly sandbox: boolean;
  /** Closes the client and stops the sandbox, if any. Idempotent. */
  close(): Promise<void>;
}
