import { Command, InvalidArgumentError, Option } from 'commander';
import type { ResponseMode, SandboxOptions } from '../../sandbox/sandbox-options.js';
import { defaultSandboxApiVersion, sandboxApiVersions, type SandboxApiVersion } from '../../sandbox/version/api-version-profile.js';

function integer(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a non-negative integer');
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('too large');
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

/** Integer sandbox options of the streaming and paging endpoints, with their flags (no default here: the library's applies). */
const streamOptions = [
  ['--idle-checkpoint-interval-ms <ms>', 'idleCheckpointIntervalMs', 'an idle open-ended stream probes for a checkpoint this often (default 60000)'],
  ['--websocket-idle-timeout-ms <ms>', 'webSocketIdleTimeoutMs', 'drop WebSocket connections silent this long, 0: never (default 60000)'],
  ['--user-rights-check-interval-ms <ms>', 'userRightsCheckIntervalMs', 'how often open streams re-read their user rights (default 5000)'],
  ['--token-expiry-grace-period-ms <ms>', 'tokenExpiryGracePeriodMs', 'how long past exp a stream may still deliver (default 0)'],
  ['--max-updates-page-size <n>', 'maxUpdatesPageSize', 'largest page of get-updates-page (default 2000)'],
  ['--default-updates-page-size <n>', 'defaultUpdatesPageSize', 'page of get-updates-page when none is asked for (default 100)'],
  ['--max-acs-page-size <n>', 'maxAcsPageSize', 'largest page of active-contracts-page (default 10000)'],
  ['--default-acs-page-size <n>', 'defaultAcsPageSize', 'page of active-contracts-page when none is asked for (default 2000)'],
  ['--submission-delay-ms <ms>', 'submissionDelayMs', 'time between accepting an async submission and its outcome (default 0)'],
] as const;

type StreamOptionFlags = Partial<Record<(typeof streamOptions)[number][1], number>>;

/** The parsed flags of `ledger-rx sandbox`. */
interface SandboxFlags extends StreamOptionFlags {
  readonly apiVersion: SandboxApiVersion;
  readonly host: string;
  readonly port: number;
  readonly maxListElements: number;
  readonly listWaitMs: number;
  readonly maxVettingPageSize: number;
  readonly synchronizers: number;
  readonly authSecret?: string;
  readonly responseMode: ResponseMode;
  readonly seed: number;
  readonly seedPayloadBytes?: number;
  readonly generate?: number;
  readonly randomSeed: number;
  readonly checkpointIntervalMs?: number;
  readonly requestTimeoutMs?: number;
  readonly maxRequestBodyBytes?: number;
  readonly dar: string[];
}

/**
 * `ledger-rx sandbox`: runs the embedded sandbox participant until SIGINT or SIGTERM. Every sandbox
 * option is a flag (defaults as in the library, except `--port`, 7575). When the sandbox is ready the
 * command prints exactly one line to stdout, `ledger-rx sandbox listening on <url>`, and nothing else;
 * on a signal it closes the sandbox and exits with 0. Bad flag values, and a `--dar` that cannot be read or
 * that the participant would refuse, exit with 2.
 */
export function sandboxCommand(): Command {
  const command = new Command('sandbox')
    .description('Run the embedded sandbox participant (Canton JSON Ledger API v2) until interrupted')
    .summary('run the embedded sandbox participant until interrupted')
    .addOption(
      new Option('--api-version <line>', 'the Canton release line to serve: its endpoints, fields and /v2/version (docs/participant-versions.md)')
        .choices([...sandboxApiVersions])
        .default(defaultSandboxApiVersion),
    )
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--port <port>', 'port to bind (0 picks a free one)', integer, 7575)
    .option('--max-list-elements <n>', 'http-list-max-elements-limit: most elements of a list answer', integer, 200)
    .option('--list-wait-ms <ms>', 'http-list-wait-time: default idle timeout of open-ended list reads', integer, 500)
    .option('--max-vetting-page-size <n>', 'maximum page size of the vetted-packages list', integer, 100)
    .option('--synchronizers <n>', 'number of synchronizers the participant is connected to', integer, 1)
    .addOption(new Option('--auth-secret <secret>', 'require HS256 tokens signed with this secret (default: auth off)').env('LEDGER_RX_SANDBOX_AUTH_SECRET'))
    .addOption(
      new Option('--response-mode <mode>', 'buffered: collect list answers first, like the real server; streamed: write them as produced')
        .choices(['buffered', 'streamed'])
        .default('buffered'),
    )
    .option('--seed <n>', 'create this many transactions at start', integer, 0)
    .option('--seed-payload-bytes <bytes>', 'approximate create-argument size of generated transactions', integer)
    .option('--generate <rate>', 'run a live workload of this many transactions per second', positiveNumber)
    .option('--random-seed <n>', 'seed of the deterministic choices (ids, offset gaps, workload)', integer, 1)
    .option('--checkpoint-interval-ms <ms>', 'how often the offset checkpoint cache is refreshed', integer)
    .option('--request-timeout-ms <ms>', 'request timeout, answered with 503', integer)
    .option('--max-request-body-bytes <n>', 'largest accepted request body, larger ones get 413 (default 8 MiB)', integer)
    .option('--dar <file>', 'upload this DAR at start and vet its packages (repeatable)', (file: string, files: string[]) => [...files, file], [] as string[]);
  for (const [flag, , help] of streamOptions) command.option(flag, help, integer);

  command.action(async (flags: SandboxFlags) => {
    const options: SandboxOptions = {
      apiVersion: flags.apiVersion,
      host: flags.host,
      port: flags.port,
      maxListElements: flags.maxListElements,
      listWaitMs: flags.listWaitMs,
      maxVettingPageSize: flags.maxVettingPageSize,
      synchronizers: flags.synchronizers,
      responseMode: flags.responseMode,
      seed: flags.seed,
      randomSeed: flags.randomSeed,
      ...(flags.authSecret === undefined ? {} : { authSecret: flags.authSecret }),
      ...(flags.seedPayloadBytes === undefined ? {} : { seedPayloadBytes: flags.seedPayloadBytes }),
      ...(flags.generate === undefined ? {} : { generate: flags.generate }),
      ...(flags.checkpointIntervalMs === undefined ? {} : { checkpointIntervalMs: flags.checkpointIntervalMs }),
      ...(flags.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: flags.requestTimeoutMs }),
      ...(flags.maxRequestBodyBytes === undefined ? {} : { maxRequestBodyBytes: flags.maxRequestBodyBytes }),
      ...Object.fromEntries(streamOptions.flatMap(([, key]) => (flags[key] === undefined ? [] : [[key, flags[key]]]))),
      ...(flags.dar.length === 0 ? {} : { dars: flags.dar }),
    };
    let sandbox;
    try {
      sandbox = await (await import('../../sandbox/start-sandbox.js')).startSandbox(options);
    } catch (error) {
      if (error instanceof RangeError) command.error(`error: ${error.message}`, { exitCode: 2, code: 'ledger-rx.invalidOption' });
      if (error instanceof Error && error.name === 'DarLoadError') command.error(`error: ${error.message}`, { exitCode: 2, code: 'ledger-rx.invalidDar' });
      throw error;
    }
    process.stdout.write(`ledger-rx sandbox listening on ${sandbox.url}\n`);
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(1);
      stopping = true;
      sandbox.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return command;
}
