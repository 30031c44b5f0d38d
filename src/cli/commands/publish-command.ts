import { Command, Option } from 'commander';
import { addFilterOptions } from '../options/add-filter-options.js';
import { addMonitoringOptions } from '../monitoring/add-monitoring-options.js';
import { addRunOptions } from '../options/add-run-options.js';
import { addSourceOptions } from '../options/add-source-options.js';
import { commandAction } from '../process/command-action.js';
import { exitCodesHelp } from '../process/exit-codes-help.js';
import { readPublishOptions } from '../publish/read-publish-options.js';
import { addSinkReadOptions } from '../sink/add-sink-read-options.js';

/** `ledger-rx publish`: the commander layer over `runPublish`. */
export function publishCommand(): Command {
  const command = new Command('publish')
    .description(
      "Publish the participant's updates to a NATS JetStream stream, exactly once: one message per element with the\n" +
        "server's bytes, subject <prefix>.<kind>.<package>.<Module>.<Entity>, Nats-Msg-Id <stream>:<offset>; resumes\n" +
        "after the offset in the stream's last message, so the stream itself is the checkpoint",
    )
    .summary('publish updates to NATS JetStream (exactly once)');
  command
    .addOption(new Option('--nats <urls>', 'NATS server URL(s), comma-separated (default: $LEDGER_RX_NATS_URL)'))
    .addOption(new Option('--nats-creds <file>', 'NATS credentials file (default: $LEDGER_RX_NATS_CREDS)'))
    .addOption(new Option('--stream <name>', 'the JetStream stream (created if missing)'))
    .addOption(new Option('--subject-prefix <prefix>', 'subject prefix, e.g. ledger.participant1 (the stream captures <prefix>.>)'));
  addSourceOptions(command, true);
  addFilterOptions(command);
  addSinkReadOptions(command, { batch: '256', batchMs: '5', batchWhat: 'elements whose acknowledgements are awaited together' });
  command
    .addOption(new Option('--replicas <n>', 'replicas of a new stream (1, 3 or 5 in a cluster)').default('1'))
    .addOption(new Option('--max-age <duration>', 'retention of a new stream: oldest message kept (e.g. 7d, 12h); default: no limit'))
    .addOption(new Option('--max-bytes <size>', 'retention of a new stream: most bytes kept (e.g. 10GB), oldest dropped; default: no limit'))
    .addOption(new Option('--window <n>', 'publishes in flight at most').default('1024'))
    .addOption(new Option('--ack-timeout-ms <ms>', 'wait this long for an acknowledgement before recovering from the stream').default('5000'))
    .addOption(new Option('--retry-for-ms <ms>', 'give up (exit 1) after this long without a successful publish, or when a start-up request (connect, the stream, its last message) keeps failing this long').default('120000'))
    .addOption(new Option('--checkpoints', 'also publish OffsetCheckpoint elements (subject <prefix>.checkpoint)'));
  addRunOptions(command);
  addMonitoringOptions(command);
  command
    .addHelpText(
      'after',
      `
Examples:
  ledger-rx publish --nats nats://localhost:4222 --stream LEDGER --subject-prefix ledger.p1 --url http://localhost:7575 --token-file jwt --party Alice::1220…
  ledger-rx publish --nats nats://n1:4222,nats://n2:4222,nats://n3:4222 --replicas 3 --max-age 7d --stream LEDGER --subject-prefix ledger.p1 --sandbox

Exactly once: the stream is the checkpoint. Each message expects the stream sequence of the one before it, so a
second publisher on the same stream is refused (exit 1, SINK_CONFLICT) and a restart resumes after the offset
in the stream's last message (the Ledger-Offset header).
${exitCodesHelp}`,
    )
    .action(commandAction(async (values, _args, io) => (await import('../publish/run-publish.js')).runPublish(readPublishOptions(values, io.env), io)));
  return command;
}
