/**
 * `ledger-rx/jetstream`: NATS JetStream as a sink ({@link JetStreamSink}: every element published once, with
 * the server's bytes, under subjects by party and template) and as a source for services
 * ({@link consumeLedgerFromJetStream}). Its declarations use the NATS client's own types
 * (`@nats-io/nats-core`, `@nats-io/jetstream`); the client is loaded only when a sink connects or a consumer
 * subscribes, and `import 'ledger-rx'` never loads or mentions it.
 *
 * @module ledger-rx/jetstream
 */
export { JetStreamSink } from './jetstream-sink.js';
export type { JetStreamSinkConnectOptions, JetStreamSinkOptions, JetStreamSinkStatus, JetStreamStreamSettings } from './jetstream-sink.js';
export { PublishWindow } from './publish-window.js';
export type { PublishPort, PublishWindowOptions, PublishWindowStatus, StreamTip, WindowMessage } from './publish-window.js';
export { consumeLedgerFromJetStream } from './consume-ledger-from-jetstream.js';
export type { ConsumeLedgerOptions } from './consume-ledger-from-jetstream.js';
export { findSequenceAfter } from './find-sequence-after.js';
export { LedgerHeaders, ledgerHeaders } from './ledger-headers.js';
export { MIXED, NONE, ledgerSubject, ledgerSubjectKind } from './ledger-subject.js';
export type { LedgerSubjectKind } from './ledger-subject.js';
export { subjectToken } from './subject-token.js';
