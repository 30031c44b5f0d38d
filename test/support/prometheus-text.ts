/** One sample of the Prometheus text format. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A parsed exposition: the samples, and each metric family's TYPE and HELP. */
export interface Exposition {
  readonly samples: readonly Sample[];
  readonly types: ReadonlyMap<string, string>;
  readonly help: ReadonlyMap<string, string>;
  /** The value of the one sample of `name` whose labels include `labels` (throws when none or several match). */
  value(name: string, labels?: Readonly<Record<string, string>>): number;
  /** Every sample of `name` whose labels include `labels`. */
  find(name: string, labels?: Readonly<Record<string, string>>): Sample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/;
const labelPair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/;

/** A sample value; like Prometheus (Go's ParseFloat), `NaN` and `Inf` in any case (prom-client writes `Nan`). */
function parseValue(text: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const n = Number(text);
  if (Number.isNaN(n)) throw new Error(`not a sample value: ${text}`);
  return n;
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const m = labelPair.exec(rest);
    if (!m) throw new Error(`malformed labels: {${text}}`);
    const [whole, name, raw] = m as unknown as [string, string, string];
    if (name in labels) throw new Error(`label ${name} twice in {${text}}`);
    labels[name] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
  }
  return labels;
}

/** The family a sample belongs to (histogram and summary samples carry suffixes). */
function familyOf(name: string, types: ReadonlyMap<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (name.endsWith(suffix) && types.has(name.slice(0, -suffix.length))) return name.slice(0, -suffix.length);
  }
  return undefined;
}

/**
 * Parses the Prometheus text exposition format (version 0.0.4) strictly: every line is a `# HELP`, a
 * `# TYPE` (before the family's samples, once), or a sample of a declared family with well-formed labels
 * and a number; histogram buckets are cumulative and end with `le="+Inf"` equal to `_count`.
 */
export function parsePrometheusText(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      const [, name, ...words] = line.split(' ').slice(1);
      help.set(name as string, words.join(' '));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, name, type] = line.split(' ').slice(1) as [string, string, string];
      if (types.has(name)) throw new Error(`TYPE of ${name} twice`);
      if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type)) throw new Error(`unknown type ${type}`);
      types.set(name, type);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = sampleLine.exec(line);
    if (!m) throw new Error(`malformed sample line: ${line}`);
    const name = m[1] as string;
    if (familyOf(name, types) === undefined) throw new Error(`sample of an undeclared family: ${line}`);
    samples.push({ name, labels: parseLabels(m[3] ?? ''), value: parseValue(m[4] as string) });
  }
  checkHistograms(samples, types);
  const matches = (s: Sample, labels: Readonly<Record<string, string>>) => Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  const find = (name: string, labels: Readonly<Record<string, string>> = {}) => samples.filter((s) => s.name === name && matches(s, labels));
  return {
    samples,
    types,
    help,
    find,
    value(name, labels = {}) {
      const found = find(name, labels);
      if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
      return (found[0] as Sample).value;
    },
  };
}

function checkHistograms(samples: readonly Sample[], types: ReadonlyMap<string, string>): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const s of samples.filter((x) => x.name === `${family}_bucket`)) {
      const { le: _le, ...rest } = s.labels;
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const [key, buckets] of series) {
      for (let i = 1; i < buckets.length; i++) {
        if ((buckets[i] as Sample).value < (buckets[i - 1] as Sample).value) throw new Error(`${family}${key}: buckets not cumulative`);
      }
      const last = buckets[buckets.length - 1] as Sample;
      if (last.labels['le'] !== '+Inf') throw new Error(`${family}${key}: no +Inf bucket`);
      const count = samples.find((s) => s.name === `${family}_count` && JSON.stringify(s.labels) === key);
      if (count?.value !== last.value) throw new Error(`${family}${key}: _count ${count?.value} != +Inf bucket ${last.value}`);
    }
  }
}
