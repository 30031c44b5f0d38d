import { flagValues } from '../options/flag-values.js';
import { UsageError } from '../options/usage-error.js';
import { readSinkReadOptions } from '../sink/read-sink-read-options.js';
import { parseByteSize } from './parse-byte-size.js';
import { parseDuration } from './parse-duration.js';
import type { PublishOptions } from './publish-options.js';

/**
 * Turns the commander values of `ledger-rx publish` into {@link PublishOptions}; throws `UsageError` (exit 2)
 * for a malformed value or a missing `--nats` (also `LEDGER_RX_NATS_URL`), `--stream` or `--subject-prefix`.
 */
export function readPublishOptions(values: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>> = {}): PublishOptions {
  const { str, int } = flagValues(values);
  const nats = str('nats') ?? env['LEDGER_RX_NATS_URL'];
  if (!nats) throw new UsageError('give --nats URL (or set LEDGER_RX_NATS_URL): the NATS server(s) to publish to');
  const stream = str('stream');
  if (!stream) throw new UsageError('give --stream NAME: the JetStream stream to publish to');
  const subjectPrefix = str('subjectPrefix');
  if (!subjectPrefix) throw new UsageError('give --subject-prefix PREFIX (e.g. ledger.participant1): subjects are <prefix>.<kind>.<package>.<Module>.<Entity>');
  const maxAge = str('maxAge');
  const maxBytes = str('maxBytes');
  return {
    ...readSinkReadOptions(values),
    nats,
    natsCreds: str('natsCreds') ?? env['LEDGER_RX_NATS_CREDS'],
    stream,
    subjectPrefix,
    replicas: int('replicas', '--replicas', 1),
    maxAgeMs: maxAge === undefined ? undefined : parseDuration('--max-age', maxAge),
    maxBytes: maxBytes === undefined ? undefined : parseByteSize('--max-bytes', maxBytes),
    window: int('window', '--window', 1),
    ackTimeoutMs: int('ackTimeoutMs', '--ack-timeout-ms', 1),
    retryForMs: int('retryForMs', '--retry-for-ms', 0),
    includeCheckpoints: values['checkpoints'] === true,
  };
}
