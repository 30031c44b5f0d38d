import { createLedgerClient } from '../../client/create-ledger-client.js';
import type { LedgerClientOptions } from '../../client/ledger-client-options.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { startSandbox } from '../../sandbox/start-sandbox.js';
import type { LedgerSource } from './ledger-source.js';
import type { Logger } from '../log/logger.js';
import type { SourceOptions } from '../options/source-options.js';
import { tokenFileProvider } from './token-file-provider.js';
import { UsageError } from '../options/usage-error.js';

/** What {@link openLedgerSource} needs besides the flags. */
export interface OpenLedgerSourceContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** Response validation of the client (default true; the streaming commands turn it off). */
  readonly validateResponses?: boolean;
}

/**
 * Opens the source named by the flags. With `url`: a client with the token from `--token`, `--token-file`
 * (a provider that re-reads the file before every request), or the `LEDGER_RX_TOKEN` environment
 * variable, in that order. With `sandbox`: starts the embedded participant on a free loopback port with a
 * live workload (`sandboxRate` tx/s, default 20) over `sandboxSeed` seeded transactions (default 50), and
 * a client of it.
 *
 * Throws {@link UsageError} when neither or both of `url` and `sandbox` are given, when both `token` and
 * `tokenFile` are, or when a token is given with `sandbox`. The token is never logged.
 */
export async function openLedgerSource(options: SourceOptions, context: OpenLedgerSourceContext): Promise<LedgerSource> {
  if (options.url && options.sandbox) throw new UsageError('give either --url or --sandbox, not both');
  if (!options.url && !options.sandbox) throw new UsageError('give --url URL (a participant) or --sandbox (the embedded sandbox)');
  if (options.token !== undefined && options.tokenFile !== undefined) throw new UsageError('give either --token or --token-file, not both');
  const validate = {
    ...(context.validateResponses === undefined ? {} : { validateResponses: context.validateResponses }),
    ...(options.webSocketHandshakeTimeoutMs === undefined ? {} : { webSocketHandshakeTimeoutMs: options.webSocketHandshakeTimeoutMs }),
  };
  if (options.sandbox) {
    if (options.token !== undefined || options.tokenFile !== undefined) throw new UsageError('--token and --token-file do not apply to --sandbox');
    if (options.caFile !== undefined || options.certFile !== undefined || options.keyFile !== undefined) throw new UsageError('--ca-file, --cert and --key do not apply to --sandbox');
    const rate = options.sandboxRate ?? 20;
    const seed = options.sandboxSeed ?? 50;
    const sandbox = await startSandbox({ generate: rate, seed });
    context.logger.info({ url: sandbox.url, rate, seed }, 'embedded sandbox started');
    // the embedded sandbox listens on 127.0.0.1 in this process: never through a proxy of the environment
    const client = createLedgerClient({ baseUrl: sandbox.url, proxy: false, ...validate });
    let closed: Promise<void> | undefined;
    return {
      client,
      url: sandbox.url,
      sandbox: true,
      close: () => (closed ??= client.close().finally(() => sandbox.close())),
    };
  }
  const url = options.url as string;
  const envToken = context.env['LEDGER_RX_TOKEN'];
  const token: LedgerClientOptions['token'] =
    options.tokenFile !== undefined ? tokenFileProvider(options.tokenFile) : (options.token ?? (envToken === '' ? undefined : envToken));
  const files = { caFile: options.caFile, certFile: options.certFile, keyFile: options.keyFile };
  const tls = Object.values(files).some((f) => f !== undefined) ? { tls: files } : {};
  let client;
  try {
    client = createLedgerClient({ baseUrl: url, ...(token === undefined ? {} : { token }), ...validate, ...tls });
  } catch (error) {
    const flag = error instanceof InvalidArgumentError ? ({ 'tls.caFile': '--ca-file', 'tls.certFile': '--cert', 'tls.keyFile': '--key' } as Record<string, string>)[error.field] : undefined;
    throw new UsageError(`${flag ?? '--url'}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let closed: Promise<void> | undefined;
  return { client, url, sandbox: false, close: () => (closed ??= client.close()) };
}
