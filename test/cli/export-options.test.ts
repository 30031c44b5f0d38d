import { describe, expect, it } from 'vitest';
import { readExportOptions } from '../../src/cli/export/read-export-options.js';
import { UsageError } from '../../src/cli/options/usage-error.js';

describe('readExportOptions', () => {
  it('reads --out, --format, the file limits and --from acs --at', () => {
    const o = readExportOptions({ out: '/tmp/x', format: 'NDJSON-ZSTD', batch: '1000', batchMs: '500', fileMib: '8', from: 'acs', at: '42' });
    expect(o).toMatchObject({ out: '/tmp/x', format: 'ndjson-zstd', batch: 1000, batchMs: 500, fileMiB: 8, fromAcs: true, at: 42, from: undefined });
    expect(readExportOptions({ out: 'd', from: '17' })).toMatchObject({ format: 'parquet', fromAcs: false, from: 17, dars: [] });
    expect(readExportOptions({ out: 'd', dar: ['a.dar', 'b.dar'] })).toMatchObject({ dars: ['a.dar', 'b.dar'] });
  });

  it('rejects bad usage before anything runs, saying what to do', () => {
    expect(() => readExportOptions({})).toThrow(UsageError);
    expect(() => readExportOptions({})).toThrow(/--out DIR/);
    expect(() => readExportOptions({ out: 'd', format: 'csv' })).toThrow(/--format must be parquet or ndjson-zstd, got 'csv'/);
    expect(() => readExportOptions({ out: 'd', at: '3' })).toThrow(/--from acs/);
    expect(() => readExportOptions({ out: 'd', fileMib: '0' })).toThrow(UsageError);
    expect(() => readExportOptions({ out: 'd', format: 'ndjson-zstd', dar: ['a.dar'] })).toThrow(/--dar FILE .* needs --format parquet/);
  });
});
