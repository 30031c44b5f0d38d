/**
 * `ledger-rx/jetstream`: NATS JetStream as a sink ({@link JetStreamSink}: every element published once, with
 * the server's bytes, under subjects by party and template) and as a source for services
 * ({@link consumeLedgerFromJetStream}). Its declarations use the NATS client's own types
 * (`@nats-io/nats-core`, `@nats-io/jetstream`); the client is loaded only when a sink connects or a consumer
 * subscribes, and `import 'ledger-rx'` never loads or mentions it. For consumers of your own: the subject of
 * an element (`ledgerSubject`) and the headers every message carries (`LedgerHeaders`).
 * The three NATS packages are optional peer dependencies of ledger-rx: importing this entry point without
 * them throws a `PeerDependencyMissingError` that names the missing ones (docs/packaging.md).
 *
 * @module ledger-rx/jetstream
 */
import { requirePeers } from '../../errors/require-peers.js';

requirePeers('ledger-rx/jetstream', ['@nats-io/jetstream', '@nats-io/nats-core', '@nats-io/transport-node'], (specifier) => import.meta.resolve(specifier));

export { JetStreamSink } from './jetstream-sink.js';
export type { JetStreamSinkConnectOptions, JetStreamSinkOptions, JetStreamSinkStatus, JetStreamStreamSettings } from './jetstream-sink.js';
export { consumeLedgerFromJetStream } from './consume-ledger-from-jetstream.js';
export type { ConsumeLedgerOptions } from './consume-ledger-from-jetstream.js';
export { LedgerHeaders } from './ledger-headers.js';
export { ledgerSubject } from './ledger-subject.js';
// The types inside JetStreamSinkStatus and ConsumeLedgerOptions (a status handler names them).
export type { PublishWindowStatus, StreamTip } from './publish-window.js';
export type { StartUpWait } from './retry-start-up.js';
