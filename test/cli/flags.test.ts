import { describe, expect, it } from 'vitest';
import { buildUpdateFormat } from '../../src/cli/options/build-update-format.js';
import { ingestCommand } from '../../src/cli/commands/ingest-command.js';
import { tailCommand } from '../../src/cli/commands/tail-command.js';
import { readIngestOptions } from '../../src/cli/ingest/read-ingest-options.js';
import { parsePackageRef } from '../../src/cli/ops/parse-package-ref.js';
import { rightsOf } from '../../src/cli/ops/rights-of.js';
import { parseFromOffset } from '../../src/cli/options/parse-from-offset.js';
import { parseIntegerFlag } from '../../src/cli/options/parse-integer-flag.js';
import { parseToOffset } from '../../src/cli/options/parse-to-offset.js';
import { readTailOptions } from '../../src/cli/tail/read-tail-options.js';
import { UsageError } from '../../src/cli/options/usage-error.js';
import type { Command } from 'commander';

/** Parses argv with a command whose action is replaced, and returns its option values. */
function parse(command: Command, argv: string[]): Record<string, unknown> {
  command.exitOverride();
  command.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  command.action(() => undefined);
  command.parse(argv, { from: 'user' });
  return command.opts();
}

describe('offset and integer flags', () => {
  it('parses --from', () => {
    expect(parseFromOffset('begin')).toBe('begin');
    expect(parseFromOffset('END')).toBe('end');
    expect(parseFromOffset('0')).toBe(0);
    expect(parseFromOffset('42')).toBe(42);
    for (const bad of ['-1', 'x', '1.5', '', '99999999999999999999']) expect(() => parseFromOffset(bad)).toThrow(UsageError);
  });

  it('parses --to', () => {
    expect(parseToOffset('end')).toBe('end');
    expect(parseToOffset('7')).toBe(7);
    for (const bad of ['0', 'begin', '-3', 'x']) expect(() => parseToOffset(bad)).toThrow(UsageError);
  });

  it('parses integer flags with a minimum and names the flag', () => {
    expect(parseIntegerFlag('--limit', '10', 1)).toBe(10);
    expect(() => parseIntegerFlag('--limit', '0', 1)).toThrow(/--limit must be an integer >= 1/);
    expect(() => parseIntegerFlag('--limit', 'ten', 1)).toThrow(UsageError);
  });
});

describe('tail flags → TailOptions', () => {
  it('has sensible defaults', () => {
    const o = readTailOptions(parse(tailCommand(), ['--sandbox']));
    expect(o.source).toMatchObject({ sandbox: true, sandboxRate: 20, sandboxSeed: 50 });
    expect(o.from).toBeUndefined();
    expect(o.to).toBeUndefined();
    expect(o.pageLimit).toBe(200);
    expect(o.longPollMs).toBe(5000);
    expect(o.idleTimeoutMs).toBe(20);
    expect(o.maxRetries).toBe(10);
    expect(o.filter).toMatchObject({ parties: [], anyParty: false, templates: [], shape: 'acs-delta', reassignments: false, topology: false });
    expect(o.progress).toBeUndefined();
    expect(o.logLevel).toBe('info');
  });

  it('reads every flag', () => {
    const o = readTailOptions(
      parse(tailCommand(), [
        '--url', 'http://h:1', '--token-file', '/t', '--party', 'A::1', '--party', 'B::1', '--template', '#p:M:T', '--interface', '#p:M:I',
        '--shape', 'ledger-effects', '--reassignments', '--topology', '--verbose', '--from', '5', '--to', 'end', '--descending', '--limit', '3',
        '--page-limit', '50', '--idle-timeout-ms', '150', '--checkpoint', 'c.json', '--out', 'o.ndjson', '--stats', '--no-progress', '--log-level', 'debug', '--checkpoints',
        '--websocket-handshake-timeout', '1500',
      ]),
    );
    expect(o.source).toMatchObject({ url: 'http://h:1', tokenFile: '/t', sandbox: false, webSocketHandshakeTimeoutMs: 1500 });
    expect(o.filter).toEqual({
      parties: ['A::1', 'B::1'], anyParty: false, templates: ['#p:M:T'], interfaces: ['#p:M:I'], shape: 'ledger-effects',
      reassignments: true, topology: true, verbose: true,
    });
    expect(o).toMatchObject({ from: 5, to: 'end', descending: true, limit: 3, pageLimit: 50, idleTimeoutMs: 150, checkpointFile: 'c.json', out: 'o.ndjson' });
    expect(o).toMatchObject({ stats: true, progress: false, logLevel: 'debug', includeCheckpoints: true });
  });

  it('rejects malformed values as usage errors', () => {
    expect(() => readTailOptions(parse(tailCommand(), ['--from', 'yesterday']))).toThrow(UsageError);
    expect(() => readTailOptions(parse(tailCommand(), ['--limit', '0']))).toThrow(UsageError);
    expect(() => readTailOptions(parse(tailCommand(), ['--idle-timeout-ms', '-1']))).toThrow(/--idle-timeout-ms must be an integer >= 0/);
    expect(() => readTailOptions(parse(tailCommand(), ['--websocket-handshake-timeout', '0']))).toThrow(/--websocket-handshake-timeout must be an integer >= 1/);
    expect(() => parse(tailCommand(), ['--shape', 'tree'])).toThrow(/Allowed choices/);
  });

  it('reads ingest flags, with --pg from the environment', () => {
    const o = readIngestOptions(parse(ingestCommand(), ['--url', 'http://h:1', '--batch', '10', '--batch-ms', '20', '--to', '9', '--idle-timeout-ms', '75']), { LEDGER_RX_PG_URL: 'postgres://x' });
    expect(o).toMatchObject({ pg: 'postgres://x', batch: 10, batchMs: 20, to: 9, schema: 'public', streamName: 'default', idleTimeoutMs: 75 });
    expect(readIngestOptions(parse(ingestCommand(), ['--url', 'http://h:1']), { LEDGER_RX_PG_URL: 'postgres://x' }).idleTimeoutMs).toBe(20);
    // without --pg or LEDGER_RX_PG_URL: the embedded PostgreSQL in ./ledger-rx-data
    expect(readIngestOptions(parse(ingestCommand(), ['--url', 'http://h:1']), {})).toMatchObject({ pg: undefined, dataDir: './ledger-rx-data' });
    expect(() => readIngestOptions(parse(ingestCommand(), ['--url', 'http://h:1', '--pg', 'postgres://x', '--data-dir', 'd']), {})).toThrow(/not both/);
  });
});

describe('filter flags → UpdateFormat', () => {
  it('reads as every party by default (the demo shows data)', () => {
    expect(buildUpdateFormat({})).toEqual({
      includeTransactions: {
        eventFormat: { filtersByParty: {}, filtersForAnyParty: { cumulative: [] }, verbose: false },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    });
  });

  it('builds parties, templates, interfaces, shape, reassignments and topology', () => {
    const format = buildUpdateFormat({
      parties: ['Alice::1'],
      templates: ['#demo:Iou:Iou'],
      interfaces: ['#demo:Holding:Holding'],
      shape: 'ledger-effects',
      reassignments: true,
      topology: true,
      verbose: true,
    });
    const filters = {
      cumulative: [
        { identifierFilter: { TemplateFilter: { value: { templateId: '#demo:Iou:Iou', includeCreatedEventBlob: false } } } },
        { identifierFilter: { InterfaceFilter: { value: { interfaceId: '#demo:Holding:Holding', includeInterfaceView: true, includeCreatedEventBlob: false } } } },
      ],
    };
    expect(format).toEqual({
      includeTransactions: { eventFormat: { filtersByParty: { 'Alice::1': filters }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
      includeReassignments: { filtersByParty: { 'Alice::1': filters }, verbose: true },
      includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: ['Alice::1'] } },
    });
  });

  it('topology for every party with --any-party', () => {
    expect(buildUpdateFormat({ anyParty: true, parties: ['A::1'], topology: true }).includeTopologyEvents).toEqual({
      includeParticipantAuthorizationEvents: { parties: [] },
    });
  });

  it("turns the builder's InvalidArgumentError into a usage error naming the flag", () => {
    expect(() => buildUpdateFormat({ templates: ['d4b59589f45ecbe7176c925c390ab6b3108539caf7ff4b8bfc7dbdf7b66ce122:Iou:Iou'] })).toThrow(UsageError);
    expect(() => buildUpdateFormat({ templates: ['#demo:Iou:Iou', '#demo:Iou:Iou'] })).toThrow(/--template.*listed twice/);
  });
});

describe('operator flags', () => {
  it('parses package references', () => {
    const id = 'd4b59589f45ecbe7176c925c390ab6b3108539caf7ff4b8bfc7dbdf7b66ce122';
    expect(parsePackageRef(id)).toEqual({ packageId: id });
    expect(parsePackageRef('ledger-rx-demo')).toEqual({ packageName: 'ledger-rx-demo' });
    expect(parsePackageRef('ledger-rx-demo@1.1.0')).toEqual({ packageName: 'ledger-rx-demo', packageVersion: '1.1.0' });
    expect(() => parsePackageRef('@1.0')).toThrow(UsageError);
    expect(() => parsePackageRef('')).toThrow(UsageError);
  });

  it('maps revoke flags to rights', () => {
    expect(rightsOf({ actAs: ['A'], readAs: ['B'], readAsAnyParty: true, participantAdmin: true })).toEqual([
      { kind: { CanActAs: { value: { party: 'A' } } } },
      { kind: { CanReadAs: { value: { party: 'B' } } } },
      { kind: { CanReadAsAnyParty: { value: {} } } },
      { kind: { ParticipantAdmin: { value: {} } } },
    ]);
    expect(rightsOf({})).toEqual([]);
  });
});
