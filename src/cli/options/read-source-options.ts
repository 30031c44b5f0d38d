import type { Transport } from '../../updates/transport.js';
import { flagValues } from './flag-values.js';
import type { SourceOptions } from './source-options.js';

/**
 * Turns the commander values of the flags added by `addSourceOptions` into {@link SourceOptions}.
 * Throws `UsageError` for a malformed `--rate`, `--seed` or
 * `--websocket-handshake-timeout`; the cross-flag rules are checked when the
 * source is opened (`openLedgerSource`).
 */
export function readSourceOptions(values: Readonly<Record<string, unknown>>): SourceOptions {
  const { str, int } = flagValues(values);
  return {
    url: str('url'),
    token: str('token'),
    tokenFile: str('tokenFile'),
    caFile: str('caFile'),
    certFile: str('cert'),
    keyFile: str('key'),
    sandbox: values['sandbox'] === true,
    waitForParticipant: values['waitForParticipant'] === true,
    sandboxRate: int('rate', '--rate', 1),
    sandboxSeed: int('seed', '--seed', 0),
    transport: str('transport') as Transport | undefined,
    webSocketHandshakeTimeoutMs: int('websocketHandshakeTimeout', '--websocket-handshake-timeout', 1),
  };
}
