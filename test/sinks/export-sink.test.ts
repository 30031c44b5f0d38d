import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Decoder } from '@toondepauw/node-zstd';
import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { rememberElementText } from '../../src/updates/element-text.js';
import { ExportSink } from '../../src/sinks/export/export-sink.js';
import { exportFileName, parseExportFileName } from '../../src/sinks/export/export-file-name.js';
import { planExportResume } from '../../src/sinks/export/plan-export-resume.js';
import { scanExportDir } from '../../src/sinks/export/scan-export-dir.js';
import { timestampMicros, utcDate } from '../../src/sinks/export/record-date.js';
import { loadOptionalPackage } from '../../src/sinks/export/load-optional-package.js';
import { PeerDependencyMissingError } from '../../src/errors/peer-dependency-missing-error.js';
import { exportUpdates } from '../../src/sinks/export/export-updates.js';
import { duckQuery, tempDirs } from './support/export-kit.js';

const newDir = tempDirs('ledger-rx-export-');

const PKG = 'a'.repeat(64);
/** A transaction with one Iou create (and, for odd offsets, an exercise), recorded at `recordTime`; its text remembered as a raw read would. */
function tx(offset: number, recordTime: string, amount = `${offset}.0000000001`): JsGetUpdatesResponse {
  const events: unknown[] = [
    {
      CreatedEvent: {
        offset, nodeId: 0, contractId: `00c${offset}`, templateId: `${PKG}:Iou:Iou`, packageName: 'iou',
        createArgument: { issuer: 'Alice::1220', owner: 'Bob::1220', currency: 'CHF', amount, observers: [] },
        witnessParties: ['Alice::1220'], signatories: ['Alice::1220'], observers: ['Bob::1220'], createdAt: recordTime, representativePackageId: PKG, acsDelta: true,
      },
    },
  ];
  if (offset % 2 === 1) {
    events.push({
      ExercisedEvent: {
        offset, nodeId: 1, contractId: `00c${offset - 1}`, templateId: `${PKG}:Iou:Iou`, choice: 'Iou_Transfer', choiceArgument: { newOwner: 'Carol::1220' },
        actingParties: ['Bob::1220'], consuming: true, witnessParties: ['Bob::1220'], lastDescendantNodeId: 1, exerciseResult: null, packageName: 'iou', acsDelta: false,
      },
    });
  }
  const element = {
    update: {
      Transaction: {
        value: { updateId: `u${offset}`, commandId: `c${offset}`, workflowId: '', effectiveAt: recordTime, events, offset, synchronizerId: 'sync::1', recordTime, traceContext: null },
      },
    },
  } as unknown as JsGetUpdatesResponse;
  rememberElementText(element, JSON.stringify(element));
  return element;
}
const checkpoint = (offset: number) => ({ update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } } }) as unknown as JsGetUpdatesResponse;
const position = (offset: number) => ({ offset, synchronizerTimes: [] });

const query = duckQuery;
const filesOf = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet') || f.endsWith('.zst') || f.includes('.tmp-')).map((f) => relative(dir, join(dir, f))).sort();

describe('export file names and timestamps', () => {
  it('names files by zero-padded offsets so that names sort as offsets, and reads them back', () => {
    const names = [[9, 10], [11, 99], [100, 1000], [1001, 2 ** 53 - 1]].map(([first, last]) => exportFileName({ first: first as number, last: last as number }, 'parquet'));
    expect(names[0]).toBe('0000000000000009-0000000000000010.parquet');
    expect([...names].sort()).toEqual(names);
    expect(names.map((n) => parseExportFileName(n, 'parquet'))).toEqual([{ first: 9, last: 10 }, { first: 11, last: 99 }, { first: 100, last: 1000 }, { first: 1001, last: 2 ** 53 - 1 }]);
    expect(parseExportFileName('0000000000000009-0000000000000010.ndjson.zst', 'parquet')).toBeUndefined();
    expect(parseExportFileName('.tmp-0000000000000009-0000000000000010.parquet.ab12.partial', 'parquet')).toBeUndefined();
    expect(parseExportFileName('12-11.parquet', 'parquet')).toBeUndefined();
  });

  it('reads record times to the microsecond, without float rounding, and their UTC date', () => {
    expect(timestampMicros('2026-11-27T23:59:59.999999Z')).toBe(1795823999999999n);
    expect(timestampMicros('2026-11-27T23:59:59Z')).toBe(1795823999000000n);
    expect(timestampMicros('2026-11-27T23:59:59.5Z')).toBe(1795823999500000n);
    expect(timestampMicros('2026-11-28T01:00:00.000001+02:00')).toBe(1795824000000001n - 3_600_000_000n);
    expect(timestampMicros('yesterday')).toBeUndefined();
    expect(utcDate(1795823999999999n)).toBe('2026-11-27');
    expect(utcDate(1795824000000000n)).toBe('2026-11-28');
  });
});

describe('planExportResume: the files as the checkpoint', () => {
  const f = (table: string, first: number, last: number) => ({ table, first, last, path: `${table}/${first}-${last}` });
  const tables = ['updates', 'events'];

  it('resumes after the last range every table completed, removing the rest and the temporary files', () => {
    const contents = { files: [f('updates', 1, 5), f('events', 1, 5), f('updates', 6, 9), f('events', 6, 9), f('updates', 10, 12)], snapshots: [], temporary: ['events/.tmp-x'] };
    expect(planExportResume(contents, tables)).toEqual({ position: 9, remove: ['updates/10-12', 'events/.tmp-x'] });
    // the same with the tables the other way round (a crash after the events file of a range)
    const swapped = { ...contents, files: contents.files.map((x) => (x.first === 10 ? f('events', 10, 12) : x)) };
    expect(planExportResume(swapped, tables)).toEqual({ position: 9, remove: ['events/10-12', 'events/.tmp-x'] });
  });

  it('is a new export while a table has no file, and removes what the others have', () => {
    expect(planExportResume({ files: [f('updates', 1, 5)], snapshots: [], temporary: [] }, tables)).toEqual({ position: undefined, remove: ['updates/1-5'] });
    expect(planExportResume({ files: [], snapshots: [], temporary: [] }, tables)).toEqual({ position: undefined, remove: [] });
  });

  it('counts a snapshot as a file of every table', () => {
    const snapshot = f('active_contracts', 40, 40);
    expect(planExportResume({ files: [], snapshots: [snapshot], temporary: [] }, tables).position).toBe(40);
    expect(planExportResume({ files: [f('updates', 41, 50)], snapshots: [snapshot], temporary: [] }, tables)).toEqual({ position: 40, remove: ['updates/41-50'] });
    expect(planExportResume({ files: [f('updates', 41, 50), f('events', 41, 50)], snapshots: [snapshot], temporary: [] }, tables).position).toBe(50);
  });

  it('refuses a directory whose files straddle the position', () => {
    expect(() => planExportResume({ files: [f('updates', 1, 9), f('events', 1, 5), f('events', 6, 9), f('updates', 10, 12), f('events', 3, 12)], snapshots: [], temporary: [] }, tables)).not.toThrow();
    expect(() => planExportResume({ files: [f('updates', 1, 9), f('events', 1, 5)], snapshots: [], temporary: [] }, tables)).toThrow(/straddles/);
  });
});

describe('ExportSink (Parquet, read back with DuckDB)', () => {
  it('writes one file per table and record date, read back exactly: Numeric as text, µs timestamps, dates', async () => {
    const dir = newDir();
    const sink = new ExportSink({ dir });
    expect(await sink.start()).toBeUndefined();
    await sink.write([tx(1, '2026-11-27T23:59:59.999999Z'), tx(2, '2026-11-27T23:59:59.999999Z', '12345678901234567890.1234567891'), checkpoint(3)]);
    await sink.write([tx(4, '2026-11-28T00:00:00.000001Z'), tx(5, '2026-11-28T00:00:01Z')]);
    expect(await sink.commit(position(5))).toEqual({ applied: true, updates: 4, bytes: expect.any(Number) });
    await sink.close();
    expect(filesOf(dir)).toEqual([
      'events/record_date=2026-11-27/0000000000000001-0000000000000002.parquet',
      'events/record_date=2026-11-28/0000000000000004-0000000000000005.parquet',
      'updates/record_date=2026-11-27/0000000000000001-0000000000000002.parquet',
      'updates/record_date=2026-11-28/0000000000000004-0000000000000005.parquet',
    ]);
    const updates = await query(`SELECT "offset", update_id, kind, epoch_us(record_time) AS us, record_date, typeof(record_date) AS date_type, command_id, workflow_id FROM read_parquet('${dir}/updates/**/*.parquet', hive_partitioning = true) ORDER BY "offset"`);
    expect(updates.map((r) => [r['offset'], r['update_id'], r['us'], String(r['date_type']), r['command_id'], r['workflow_id']])).toEqual([
      [1n, 'u1', 1795823999999999n, 'DATE', 'c1', null],
      [2n, 'u2', 1795823999999999n, 'DATE', 'c2', null],
      [4n, 'u4', 1795824000000001n, 'DATE', 'c4', null],
      [5n, 'u5', 1795824001000000n, 'DATE', 'c5', null],
    ]);
    const events = await query(
      `SELECT "offset", node_id, kind, contract_id, template_id, package_id, payload, (payload->>'amount')::DECIMAL(38,10) AS amount, choice, consuming, acting_parties, signatories, witnesses, strftime(record_date, '%Y-%m-%d') AS d FROM read_parquet('${dir}/events/**/*.parquet', hive_partitioning = true) ORDER BY "offset", node_id`,
    );
    expect(events).toHaveLength(6);
    expect(events[0]).toMatchObject({ offset: 1n, node_id: 0, kind: 'created', contract_id: '00c1', template_id: '#iou:Iou:Iou', package_id: PKG, choice: null, consuming: null, acting_parties: [], signatories: ['Alice::1220'], d: '2026-11-27' });
    expect(JSON.parse(events[0]?.['payload'] as string)).toEqual({ issuer: 'Alice::1220', owner: 'Bob::1220', currency: 'CHF', amount: '1.0000000001', observers: [] });
    expect(events[1]).toMatchObject({ offset: 1n, node_id: 1, kind: 'exercised', choice: 'Iou_Transfer', consuming: true, acting_parties: ['Bob::1220'], payload: '{"newOwner":"Carol::1220"}' });
    const exact = await query(`SELECT (payload->>'amount') AS text, ((payload->>'amount')::DECIMAL(38,10))::VARCHAR AS dec FROM read_parquet('${dir}/events/**/*.parquet') WHERE "offset" = 2`);
    expect(exact).toEqual([{ text: '12345678901234567890.1234567891', dec: '12345678901234567890.1234567891' }]);
    const day = await query(`SELECT count(*) AS n FROM read_parquet('${dir}/events/**/*.parquet', hive_partitioning = true) WHERE record_date = DATE '2026-11-28'`);
    expect(day).toEqual([{ n: 3n }]);
  });

  it('rolls files at maxFileRows inside a unit, each a contiguous range', async () => {
    const dir = newDir();
    const sink = new ExportSink({ dir, maxFileRows: 2 });
    await sink.start();
    await sink.write([1, 2, 3, 4, 5].map((o) => tx(o, '2026-11-27T10:00:00Z')));
    await sink.commit(position(5));
    await sink.close();
    expect(filesOf(dir).filter((f) => f.startsWith('updates')).map((f) => f.split('/').at(-1))).toEqual([
      '0000000000000001-0000000000000002.parquet',
      '0000000000000003-0000000000000004.parquet',
      '0000000000000005-0000000000000005.parquet',
    ]);
  });

  it('after a crash between the renames of a range, resumes before it and writes it once', async () => {
    const dir = newDir();
    const first = new ExportSink({ dir });
    await first.start();
    await first.write([tx(1, '2026-11-27T10:00:00Z'), tx(2, '2026-11-27T10:00:00Z')]);
    await first.commit(position(2));
    await first.write([tx(3, '2026-11-27T11:00:00Z'), tx(4, '2026-11-27T11:00:00Z')]);
    await first.commit(position(4));
    await first.close();
    // the crash: the events file of the range 3-4 was never renamed; a temporary file of the next was being written
    const lost = join(dir, 'events/record_date=2026-11-27/0000000000000003-0000000000000004.parquet');
    rmSync(lost);
    writeFileSync(join(dir, 'updates/record_date=2026-11-27/.tmp-0000000000000005-0000000000000006.parquet.1234abcd.partial'), 'torn');
    writeFileSync(join(dir, 'ledger-rx.lock'), '999999999\n'); // a lock left by the killed process

    const statuses: unknown[] = [];
    const second = new ExportSink({ dir, onStatus: (s) => statuses.push(s) });
    expect(await second.start()).toEqual(position(2));
    expect(statuses[0]).toMatchObject({ type: 'resumed', position: 2, removed: [expect.stringContaining('updates/record_date=2026-11-27/0000000000000003-0000000000000004.parquet'), expect.stringContaining('.tmp-')] });
    expect(filesOf(dir)).toHaveLength(2);
    await second.write([tx(3, '2026-11-27T11:00:00Z'), tx(4, '2026-11-27T11:00:00Z'), tx(5, '2026-11-27T12:00:00Z')]);
    await second.commit(position(5));
    await second.close();
    const offsets = await query(`SELECT "offset" FROM read_parquet('${dir}/updates/**/*.parquet') ORDER BY 1`);
    expect(offsets.map((r) => r['offset'])).toEqual([1n, 2n, 3n, 4n, 5n]);
    const events = await query(`SELECT "offset", node_id FROM read_parquet('${dir}/events/**/*.parquet') ORDER BY 1, 2`);
    expect(events.map((r) => `${r['offset']}/${r['node_id']}`)).toEqual(['1/0', '1/1', '2/0', '3/0', '3/1', '4/0', '5/0', '5/1']);
  });

  it('writes an events file with no rows for a range without events, so the range counts', async () => {
    const dir = newDir();
    const sink = new ExportSink({ dir });
    await sink.start();
    const topology = { update: { TopologyTransaction: { value: { updateId: 't7', offset: 7, synchronizerId: 's', recordTime: '2026-11-27T10:00:00Z', events: [], traceContext: null } } } } as unknown as JsGetUpdatesResponse;
    await sink.write([topology]);
    await sink.commit(position(7));
    await sink.close();
    expect(await query(`SELECT count(*) AS n FROM read_parquet('${dir}/events/**/*.parquet')`)).toEqual([{ n: 0n }]);
    expect(await query(`SELECT kind FROM read_parquet('${dir}/updates/**/*.parquet')`)).toEqual([{ kind: 'topology_transaction' }]);
    const again = new ExportSink({ dir });
    expect(await again.start()).toEqual(position(7));
    await again.close();
  });

  it('refuses a second exporter of the same directory while the first runs', async () => {
    const dir = newDir();
    const first = new ExportSink({ dir });
    await first.start();
    await expect(new ExportSink({ dir }).start()).rejects.toMatchObject({ code: 'SINK_CONFLICT' });
    await first.close();
  });
});

describe('ExportSink (NDJSON + zstd)', () => {
  it('writes the elements as received, one per line, in zstd, with the same naming and resume rule', async () => {
    const dir = newDir();
    const sink = new ExportSink({ dir, format: 'ndjson-zstd' });
    await sink.start();
    const elements = [tx(1, '2026-11-27T10:00:00Z'), checkpoint(2), tx(3, '2026-11-27T10:00:00Z')];
    // the server's own bytes: different spacing than JSON.stringify would give
    rememberElementText(elements[0] as object, '{ "update" : ' + JSON.stringify((elements[0] as { update: unknown }).update) + ' }');
    await sink.write(elements);
    await sink.commit(position(3));
    await sink.close();
    expect(filesOf(dir)).toEqual(['updates/record_date=2026-11-27/0000000000000001-0000000000000003.ndjson.zst']);
    const text = new Decoder().decodeSync(readFileSync(join(dir, filesOf(dir)[0] as string))).toString();
    expect(text.split('\n')).toEqual(['{ "update" : ' + JSON.stringify((elements[0] as { update: unknown }).update) + ' }', JSON.stringify(elements[2]), '']);
    const again = new ExportSink({ dir, format: 'ndjson-zstd' });
    expect(await again.start()).toEqual(position(3));
    await again.close();
    expect((await scanExportDir(dir, ['updates'], 'parquet')).files).toEqual([]);
  });
});

describe('loadOptionalPackage', () => {
  it('names a missing optional package in a typed error', async () => {
    const name = 'ledger-rx-no-such-package';
    const error = await loadOptionalPackage(name, 'the export', () => import(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerDependencyMissingError);
    expect(error).toMatchObject({ code: 'PEER_DEPENDENCY_MISSING', packages: [name], retryable: false });
    expect((error as Error).message).toContain(`npm install ${name}`);
  });
});

describe('exportUpdates (the library, from an Observable)', () => {
  it('writes the files from an Observable, and a second run reads only after what they hold', async () => {
    const dir = newDir();
    const ledger = [1, 2, 3, 4, 5, 6, 7].map((o) => tx(o, '2026-11-27T10:00:00Z'));
    const asked: (number | undefined)[] = [];
    const run = (upTo: number) =>
      lastValueFrom(
        exportUpdates({
          dir,
          batchSize: 3,
          read: (position) => {
            asked.push(position?.offset);
            return of(...ledger.filter((e) => { const o = (e.update as { Transaction: { value: { offset: number } } }).Transaction.value.offset; return o > (position?.offset ?? 0) && o <= upTo; }));
          },
        }).pipe(toArray()),
      );
    const first = await run(4);
    expect(first.map((c) => [c.firstOffset, c.position.offset])).toEqual([[1, 3], [4, 4]]);
    const second = await run(7);
    expect(asked).toEqual([undefined, 4]);
    expect(second.map((c) => [c.firstOffset, c.position.offset])).toEqual([[5, 7]]);
    const offsets = await query(`SELECT "offset" FROM read_parquet('${dir}/updates/**/*.parquet') ORDER BY 1`);
    expect(offsets.map((r) => r['offset'])).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n]);
  });
});
