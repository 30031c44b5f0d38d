import { Option, type Command } from 'commander';

/**
 * Adds the source flags shared by the commands that talk to a participant: `--url`, `--token`,
 * `--token-file`, the TLS files `--ca-file`, `--cert`, `--key` (an `https://` participant with a private CA
 * or client certificates, on both transports: docs/network-paths.md), `--wait-for-participant`, and for the
 * commands that read (`reads`) `--transport`, `--websocket-handshake-timeout`, `--sandbox`, `--rate`, `--seed`;
 * `reads: 'completions'` offers only the transports completions have (no pages). Read them back with `readSourceOptions`.
 */
export function addSourceOptions(command: Command, reads: boolean | 'completions'): Command {
  command
    .addOption(new Option('--url <url>', 'JSON Ledger API base URL of the participant, e.g. http://localhost:7575'))
    .addOption(new Option('--token <jwt>', 'bearer token (visible in the process list: prefer --token-file or LEDGER_RX_TOKEN)'))
    .addOption(new Option('--token-file <file>', 'file holding the bearer token, re-read before every request (rotating tokens)'))
    .addOption(new Option('--ca-file <file>', 'https: PEM file of the certificate authorities to trust (a private CA) instead of the defaults'))
    .addOption(new Option('--cert <file>', 'https: PEM client certificate, for a participant (or proxy) that asks for one (with --key)'))
    .addOption(new Option('--key <file>', 'https: PEM key of the client certificate (with --cert)'))
    .addOption(
      new Option('--wait-for-participant', 'at start-up, keep retrying a participant that refuses connections or whose host is unknown, instead of giving up after a few seconds'),
    );
  if (reads) {
    const transport =
      reads === 'completions'
        ? new Option('--transport <transport>', 'how to read completions: websocket (the stream), list (POST /v2/commands/command-completions), or auto: websocket, falling back at once to list when the participant or a proxy does not carry it').choices(['auto', 'websocket', 'list'])
        : new Option('--transport <transport>', 'how to read updates: websocket (GET /v2/updates stream), page (get-updates-page), list (POST /v2/updates), or auto: websocket, falling back at once when the participant or a proxy does not carry it').choices(['auto', 'websocket', 'page', 'list']);
    command
      .addOption(transport.default('auto'))
      .addOption(new Option('--websocket-handshake-timeout <ms>', 'how long a WebSocket upgrade may wait for its answer; auto falls back to HTTP after it (default 3000)'))
      .addOption(new Option('--sandbox', 'start the embedded sandbox participant with a live workload and read from it'))
      .addOption(new Option('--rate <tx-per-second>', 'sandbox: transactions per second of the live workload').default('20'))
      .addOption(new Option('--seed <count>', 'sandbox: transactions created at start').default('50'));
  }
  return command;
}
