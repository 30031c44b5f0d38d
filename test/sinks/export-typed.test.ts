import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDarFile, type Dar } from '../../src/daml/index.js';
import type { JsGetUpdatesResponse } from '../../src/schemas/updates.js';
import { ExportSink } from '../../src/sinks/export/export-sink.js';
import { planExportResume } from '../../src/sinks/export/plan-export-resume.js';
import { scanExportDir } from '../../src/sinks/export/scan-export-dir.js';
import { typedTemplateTables } from '../../src/sinks/export/typed-template-tables.js';
import { duckQuery, tempDirs } from './support/export-kit.js';

const newDir = tempDirs('ledger-rx-export-typed-');

let richtypes: Dar;
let nameService: Dar;
let PKG: string;
beforeAll(async () => {
  richtypes = await readDarFile('../shared/dars/richtypes.dar');
  nameService = await readDarFile('../shared/dars/splice-amulet-name-service.dar');
  PKG = richtypes.mainPackageId;
});

const RICH = '#richtypes:RichTypes:RichRecord';
const RICH_TABLE = 'template__richtypes__RichTypes__RichRecord';
const MARKER_TABLE = 'template__richtypes__RichTypes__Marker';

/** A RichRecord create argument as the participant encodes it (docs/typed-templates.md): Int64 and Numeric as strings, Numeric with its full scale. */
function richPayload(n: number): Record<string, unknown> {
  return {
    owner: 'Alice::1220',
    count: n % 2 === 0 ? '-9223372036854775808' : String(n),
    amount: n % 2 === 0 ? '-12345678901234567890.1234567891' : `${n}.0000000001`,
    label: `label ${n}`,
    active: n % 2 === 1,
    asOf: n % 2 === 0 ? '0001-01-01' : '2026-11-27',
    observedAt: n % 2 === 0 ? '2026-11-27T16:22:44.123456Z' : '1969-12-31T23:59:59.5Z',
    note: n % 2 === 0 ? null : 'a note',
    tags: n % 2 === 0 ? [] : ['a', 'b'],
    attributes: { k: `v${n}` },
    marker: `00marker${n}`,
    profile: { nickname: `nick${n}`, level: String(n * 1000) },
    outcome: n % 2 === 0 ? { tag: 'Pending', value: {} } : { tag: 'Win', value: { prize: '1.50', tier: 'gold' } },
    fee: '0.25',
  };
}

const created = (offset: number, nodeId: number, templateId: string, packageName: string, createArgument: unknown) => ({
  CreatedEvent: {
    offset, nodeId, contractId: `00c${offset}n${nodeId}`, templateId, packageName, createArgument,
    witnessParties: ['Alice::1220'], signatories: ['Alice::1220'], observers: [], createdAt: '2026-11-27T10:00:00Z', representativePackageId: PKG, acsDelta: true,
  },
});

/** A transaction with a RichRecord create, a Marker create on even offsets, and a create of a template no DAR declares. */
function tx(offset: number, payload: unknown = richPayload(offset)): JsGetUpdatesResponse {
  const events: unknown[] = [
    created(offset, 0, `${PKG}:RichTypes:RichRecord`, 'richtypes', payload),
    created(offset, 1, `${'b'.repeat(64)}:Iou:Iou`, 'iou', { issuer: 'Alice::1220', amount: '1.0000000000' }),
  ];
  if (offset % 2 === 0) events.push(created(offset, 2, `${PKG}:RichTypes:Marker`, 'richtypes', { owner: 'Bob::1220' }));
  events.push({
    ExercisedEvent: {
      offset, nodeId: 3, contractId: `00c${offset}n0`, templateId: `${PKG}:RichTypes:RichRecord`, choice: 'Relabel', choiceArgument: { newLabel: 'x' },
      actingParties: ['Alice::1220'], consuming: false, witnessParties: ['Alice::1220'], lastDescendantNodeId: 3, exerciseResult: null, packageName: 'richtypes', acsDelta: false,
    },
  });
  return {
    update: { Transaction: { value: { updateId: `u${offset}`, commandId: `c${offset}`, workflowId: '', effectiveAt: '2026-11-27T10:00:00Z', events, offset, synchronizerId: 'sync::1', recordTime: '2026-11-27T10:00:00Z', traceContext: null } } },
  } as unknown as JsGetUpdatesResponse;
}
const position = (offset: number) => ({ offset, synchronizerTimes: [] });

const query = duckQuery;
const filesOf = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet') || f.includes('.tmp-')).map((f) => relative(dir, join(dir, f))).sort();

async function exportRanges(dir: string, dars: readonly Dar[], ranges: readonly (readonly number[])[]): Promise<void> {
  const sink = new ExportSink({ dir, dars });
  await sink.start();
  for (const range of ranges) {
    await sink.write(range.map((o) => tx(o)));
    await sink.commit(position(range.at(-1) as number));
  }
  await sink.close();
}

describe('typed template tables: the names and columns', () => {
  it("has a table per template of the DAR's main package, named by package name, module and entity", () => {
    const tables = typedTemplateTables([richtypes]);
    expect(tables.map((t) => [t.name, t.templateId])).toEqual([
      [MARKER_TABLE, '#richtypes:RichTypes:Marker'],
      [RICH_TABLE, RICH],
    ]);
    const rich = tables[1];
    expect(rich?.layout.columns.map((c) => c.name)).toEqual([
      'offset', 'update_id', 'node_id', 'kind', 'contract_id', 'package_id', 'record_time',
      'owner', 'count', 'amount', 'label', 'active', 'asOf', 'observedAt', 'note', 'tags', 'attributes', 'marker', 'profile', 'outcome', 'fee',
    ]);
    expect(Object.fromEntries(rich?.fields.map((f) => [f.name, `${f.shape.describe}${f.optional ? '?' : ''}`]) ?? [])).toEqual({
      owner: 'string', count: 'bigint', amount: 'decimal(38,10)', label: 'string', active: 'boolean', asOf: 'date', observedAt: 'timestamp', note: 'string?',
      tags: 'string[]', attributes: 'json', marker: 'string', profile: 'struct', outcome: 'json', fee: 'decimal(38,2)',
    });
  });

  it('takes the templates of the main packages only (not of the dependencies), sorted', () => {
    const tables = typedTemplateTables([nameService, richtypes]);
    expect(tables.every((t) => t.name.startsWith('template__splice-amulet-name-service__') || t.name.startsWith('template__richtypes__'))).toBe(true);
    expect(tables.filter((t) => t.name.startsWith('template__splice-amulet-name-service__')).length).toBe(nameService.main.modules.reduce((n, m) => n + m.templates.length, 0));
    expect(tables.map((t) => t.name)).toEqual(tables.map((t) => t.name).sort());
  });

  it('converts exactly: Numeric digit by digit, Int64 to the extremes, dates of year 1, µs times before 1970', () => {
    const rich = typedTemplateTables([richtypes])[1];
    const row = rich?.row([1n, 'u', 0, 'created', 'c', PKG, 0n], richPayload(2)) ?? [];
    const byName = Object.fromEntries(rich?.layout.columns.map((c, i) => [c.name, row[i]]) ?? []);
    expect(byName).toMatchObject({
      count: -(2n ** 63n), amount: -123456789012345678901234567891n, asOf: -719162, observedAt: 1795796564123456n, note: null, tags: [],
      attributes: '{"k":"v2"}', profile: { nickname: 'nick2', level: 2000n }, outcome: '{"tag":"Pending","value":{}}', fee: 25n,
    });
    const odd = rich?.row([1n, 'u', 0, 'created', 'c', PKG, 0n], richPayload(1)) ?? [];
    expect(odd.slice(13, 14)).toEqual([-500000n]); // 1969-12-31T23:59:59.5Z
    expect(() => rich?.row([9n, 'u', 0, 'created', 'c', PKG, 0n], { ...richPayload(1), amount: '1.00000000001' })).toThrow(/offset 9 .*amount: expected a Numeric 10/);
    expect(() => rich?.row([9n, 'u', 0, 'created', 'c', PKG, 0n], { ...richPayload(1), count: 3.5 })).toThrow(/count: expected an Int64/);
    expect(() => rich?.row([9n, 'u', 0, 'created', 'c', PKG, 0n], { ...richPayload(1), profile: undefined })).toThrow(/profile: expected a record/);
  });
});

describe('ExportSink with --dar: typed template tables read back with DuckDB', () => {
  it('writes a typed table per template whose typed values equal the payloads of the events table', async () => {
    const dir = newDir();
    await exportRanges(dir, [richtypes], [[1, 2], [3]]);
    expect(filesOf(dir)).toEqual([
      'events/record_date=2026-11-27/0000000000000001-0000000000000002.parquet',
      'events/record_date=2026-11-27/0000000000000003-0000000000000003.parquet',
      `${MARKER_TABLE}/record_date=2026-11-27/0000000000000001-0000000000000002.parquet`,
      `${MARKER_TABLE}/record_date=2026-11-27/0000000000000003-0000000000000003.parquet`, // no Marker in 3: a file with no rows
      `${RICH_TABLE}/record_date=2026-11-27/0000000000000001-0000000000000002.parquet`,
      `${RICH_TABLE}/record_date=2026-11-27/0000000000000003-0000000000000003.parquet`,
      'updates/record_date=2026-11-27/0000000000000001-0000000000000002.parquet',
      'updates/record_date=2026-11-27/0000000000000003-0000000000000003.parquet',
    ]);
    const types = await query(`DESCRIBE SELECT * FROM read_parquet('${dir}/${RICH_TABLE}/**/*.parquet', hive_partitioning = true)`);
    expect(Object.fromEntries(types.map((r) => [r['column_name'], r['column_type']]))).toEqual({
      offset: 'BIGINT', update_id: 'VARCHAR', node_id: 'INTEGER', kind: 'VARCHAR', contract_id: 'VARCHAR', package_id: 'VARCHAR', record_time: 'TIMESTAMP WITH TIME ZONE',
      owner: 'VARCHAR', count: 'BIGINT', amount: 'DECIMAL(38,10)', label: 'VARCHAR', active: 'BOOLEAN', asOf: 'DATE', observedAt: 'TIMESTAMP WITH TIME ZONE', note: 'VARCHAR',
      tags: 'VARCHAR[]', attributes: 'VARCHAR', marker: 'VARCHAR', profile: 'STRUCT(nickname VARCHAR, "level" BIGINT)', outcome: 'VARCHAR', fee: 'DECIMAL(38,2)', record_date: 'DATE',
    });
    // the typed values, as text DuckDB renders from its typed columns, against the JSON payloads of the events table
    const rows = await query(
      `SELECT t."offset", t.node_id, e.payload, t.owner, t.count::VARCHAR AS count, t.amount::VARCHAR AS amount, t.label, t.active, t.asOf::VARCHAR AS asOf,
         epoch_us(t.observedAt) AS observed_us, strftime(t.observedAt AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ') AS observed, t.note, t.tags, t.attributes, t.marker,
         t.profile.nickname AS nickname, t.profile.level::VARCHAR AS level, t.outcome, t.fee::VARCHAR AS fee, t.package_id, t.kind, t.contract_id = e.contract_id AS same
       FROM read_parquet('${dir}/${RICH_TABLE}/**/*.parquet') t JOIN read_parquet('${dir}/events/**/*.parquet') e ON e."offset" = t."offset" AND e.node_id = t.node_id
       ORDER BY t."offset"`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const p = JSON.parse(row['payload'] as string) as Record<string, unknown>;
      expect(row).toMatchObject({ kind: 'created', package_id: PKG, same: true });
      expect([row['owner'], row['count'], row['amount'], row['label'], row['active'], row['asOf'], row['note'], row['tags'], row['marker'], row['fee']]).toEqual([
        p['owner'], p['count'], p['amount'], p['label'], p['active'], p['asOf'], p['note'], p['tags'], p['marker'], p['fee'],
      ]);
      expect(JSON.parse(row['attributes'] as string)).toEqual(p['attributes']);
      expect(JSON.parse(row['outcome'] as string)).toEqual(p['outcome']);
      expect([row['nickname'], row['level']]).toEqual([(p['profile'] as Record<string, unknown>)['nickname'], (p['profile'] as Record<string, unknown>)['level']]);
      const text = p['observedAt'] as string;
      expect(row['observed']).toBe(text.replace(/(\.\d+)?Z$/, (_m, f: string | undefined) => `.${((f ?? '.').slice(1) + '000000').slice(0, 6)}Z`));
    }
    expect(rows.map((r) => r['observed_us'])).toEqual([-500000n, 1795796564123456n, -500000n]);
    // exact beyond a double: 30 significant digits
    expect(rows[1]?.['amount']).toBe('-12345678901234567890.1234567891');
    // arithmetic on the decimal column stays exact
    expect(await query(`SELECT sum(amount)::VARCHAR AS s FROM read_parquet('${dir}/${RICH_TABLE}/**/*.parquet')`)).toEqual([{ s: '-12345678901234567886.1234567889' }]);
    expect(await query(`SELECT "offset", owner FROM read_parquet('${dir}/${MARKER_TABLE}/**/*.parquet')`)).toEqual([{ offset: 2n, owner: 'Bob::1220' }]);
    // a template that no DAR declares is in events only
    expect(await query(`SELECT count(*) AS n FROM read_parquet('${dir}/events/**/*.parquet') WHERE template_id = '#iou:Iou:Iou'`)).toEqual([{ n: 3n }]);
    expect(readdirSync(dir).filter((d) => d.startsWith('template__')).sort()).toEqual([MARKER_TABLE, RICH_TABLE]);
  });

  it('after a crash between the renames of a range, resumes before it (the resume planner) and writes each typed row once', async () => {
    const dir = newDir();
    await exportRanges(dir, [richtypes], [[1, 2], [3, 4]]);
    // the crash: the RichRecord file of 3-4 was renamed, the Marker file and events of 3-4 never were
    rmSync(join(dir, `${MARKER_TABLE}/record_date=2026-11-27/0000000000000003-0000000000000004.parquet`));
    rmSync(join(dir, 'events/record_date=2026-11-27/0000000000000003-0000000000000004.parquet'));
    const tables = ['updates', MARKER_TABLE, RICH_TABLE, 'events'];
    const plan = planExportResume(await scanExportDir(dir, tables, 'parquet'), tables);
    expect(plan.position).toBe(2);
    expect(plan.remove.map((p) => relative(dir, p)).sort()).toEqual([
      `${RICH_TABLE}/record_date=2026-11-27/0000000000000003-0000000000000004.parquet`,
      'updates/record_date=2026-11-27/0000000000000003-0000000000000004.parquet',
    ]);
    const sink = new ExportSink({ dir, dars: [richtypes] });
    expect(await sink.start()).toEqual(position(2));
    await sink.write([tx(3), tx(4), tx(5)]);
    await sink.commit(position(5));
    await sink.close();
    const rich = await query(`SELECT "offset" FROM read_parquet('${dir}/${RICH_TABLE}/**/*.parquet') ORDER BY 1`);
    expect(rich.map((r) => r['offset'])).toEqual([1n, 2n, 3n, 4n, 5n]);
    const marker = await query(`SELECT "offset" FROM read_parquet('${dir}/${MARKER_TABLE}/**/*.parquet') ORDER BY 1`);
    expect(marker.map((r) => r['offset'])).toEqual([2n, 4n]);
    // a crash inside the first range (typed files renamed, events not): a new export, the typed files removed
    const fresh = newDir();
    await exportRanges(fresh, [richtypes], [[1]]);
    rmSync(join(fresh, 'events/record_date=2026-11-27/0000000000000001-0000000000000001.parquet'));
    const again = new ExportSink({ dir: fresh, dars: [richtypes] });
    expect(await again.start()).toBeUndefined();
    await again.close();
    expect(filesOf(fresh)).toEqual([]);
  });

  it('keeps the set of typed tables fixed: a restart with other DARs is refused, the same DARs resume', async () => {
    const dir = newDir();
    await exportRanges(dir, [richtypes], [[1]]);
    const without = new ExportSink({ dir });
    await expect(without.start()).rejects.toMatchObject({ code: 'SINK_FAILED', message: expect.stringMatching(/the directory has template__richtypes__RichTypes__Marker, template__richtypes__RichTypes__RichRecord, which the DARs do not declare/) });
    await without.close();
    const more = new ExportSink({ dir, dars: [richtypes, nameService] });
    await expect(more.start()).rejects.toMatchObject({ code: 'SINK_FAILED', message: expect.stringMatching(/the DARs add template__splice-amulet-name-service__/) });
    await more.close();
    expect(filesOf(dir)).toHaveLength(4); // nothing removed
    const same = new ExportSink({ dir, dars: [richtypes] });
    expect(await same.start()).toEqual(position(1));
    await same.close();
    // an export started without DARs cannot gain typed tables either
    const plain = newDir();
    await exportRanges(plain, [], [[1]]);
    const late = new ExportSink({ dir: plain, dars: [richtypes] });
    await expect(late.start()).rejects.toMatchObject({ code: 'SINK_FAILED' });
    await late.close();
  });

  it('fails the export on a payload the DAR does not describe, naming the template, the offset and the field', async () => {
    const dir = newDir();
    const sink = new ExportSink({ dir, dars: [richtypes] });
    await sink.start();
    await expect(sink.write([tx(1, { ...richPayload(1), asOf: '27/11/2026' })])).rejects.toMatchObject({
      code: 'SINK_FAILED',
      message: expect.stringMatching(/#richtypes:RichTypes:RichRecord at offset 1 .*asOf: expected a Date/),
    });
    await sink.close();
    expect(filesOf(dir)).toEqual([]);
  });

  it('refuses DARs with the ndjson-zstd format', () => {
    expect(() => new ExportSink({ dir: newDir(), format: 'ndjson-zstd', dars: [richtypes] })).toThrow(/parquet/);
  });
});
