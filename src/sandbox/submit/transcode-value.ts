import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { LfDataType, LfType } from '../state/lf-type.js';

/** A type variable's binding: the type it stands for, in the environment of the type that bound it. */
interface Bound {
  readonly type: LfType;
  readonly env: Env;
}
type Env = ReadonlyMap<string, Bound>;

const emptyEnv: Env = new Map();

/**
 * A problem found in a value that the server reports after the JSON layer (docs/sandbox.md#typed-creates):
 * `validation` by the gRPC value validator (step 4 of a submission, `INVALID_ARGUMENT`), `preprocessing` by the
 * engine's command preprocessing (step 5, `COMMAND_PREPROCESSING_FAILED`). Both carry the submission's
 * correlation id, so the caller raises them at their step.
 */
export interface DeferredValueProblem {
  readonly stage: 'validation' | 'preprocessing';
  readonly cause: string;
}

/** What the transcoder needs of the participant: the data types of its packages, the release line served. */
export interface ValueTypes {
  dataType(packageId: string, qualifiedName: string): LfDataType | undefined;
  /** On 3.4 a malformed variant is the generic 500 (the 3.4 JSON layer has no case for it). */
  readonly variantErrorIs500: boolean;
}

/** A JSON value as ujson prints it inside its messages (`Expected ujson.Str (data: 5)`). */
function ujsonText(v: unknown): string {
  return v === undefined ? 'null' : JSON.stringify(v);
}

/** The 500 the JSON layer answers when the codec throws something it has no case for (docs/sandbox.md#typed-creates). */
function internal(message: string, exceptionClass: string): SandboxError {
  return SandboxError.jsonLayer(ErrorDefs.LEDGER_API_INTERNAL_ERROR, message, { context: { throwableO: `Some(${exceptionClass}: ${message})` } });
}

function expected(kind: 'Str' | 'Obj' | 'Arr' | 'Bool', v: unknown): SandboxError {
  const message = `Expected ujson.${kind} (data: ${ujsonText(v)})`;
  return internal(message, 'ujson.Value$InvalidData');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Orders strings by Unicode code point (the order of UTF-8 bytes), as Daml's Text ordering does. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // surrogates (D800–DFFF) encode code points above FFFF: move them after E000–FFFF
      const fx = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
      const fy = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
      return fx - fy;
    }
  }
  return a.length - b.length;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** `Long.parseLong`: an optional sign and decimal digits, in range; the normalized decimal text, or `undefined`. */
function parseLong(s: string): string | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n.toString();
}

/** Java's `Double.toString` for a JSON number (the JSON layer reads numbers as doubles). */
function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e7)) {
    const [mantissa = '', exponent = ''] = n.toExponential().split('e');
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.replace('+', '')}`;
  }
  const plain = Object.is(n, -0) ? '-0' : String(n);
  return plain.includes('.') ? plain : `${plain}.0`;
}

/** A decimal as `BigDecimal` holds it: sign, digits of the unscaled value, scale. */
interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly scale: number;
}

function parseDecimal(s: string): Decimal {
  const negative = s.startsWith('-');
  const body = s.replace(/^[+-]/, '');
  const [int = '', frac = ''] = body.split('.');
  const digits = `${int}${frac}`.replace(/^0+(?=\d)/, '');
  return { negative: negative && /[1-9]/.test(digits), digits, scale: frac.length };
}

/** `BigDecimal.precision`: the number of digits of the unscaled value (1 for zero). */
const precision = (d: Decimal): number => d.digits.replace(/^0+(?=\d)/, '').length;

/** `BigDecimal.toPlainString`, with Daml's trailing dot for a scale of 0. */
function plainString(d: Decimal): string {
  const digits = d.digits.padStart(d.scale + 1, '0');
  const int = digits.slice(0, digits.length - d.scale);
  const frac = digits.slice(digits.length - d.scale);
  return `${d.negative ? '-' : ''}${int}.${frac}`;
}

const numericPattern = /^[+-]?\d{1,38}(\.\d{0,37})?$/;

const daysInMonth = (y: number, m: number): number => (m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

/** Days since 1970-01-01 of a proleptic Gregorian date (any year). */
function epochDay(y: number, m: number, d: number): number {
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return Math.floor(date.getTime() / 86_400_000);
}

const minDate = epochDay(1, 1, 1);
const maxDate = epochDay(9999, 12, 31);
const minMicros = BigInt(minDate) * 86_400_000_000n;
const maxMicros = (BigInt(maxDate) + 1n) * 86_400_000_000n - 1n;

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const timestampPattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{0,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2})(?::(\d{2}))?)(?:\[[^\]]+\])?$/;

function validDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

function parseError(s: string): SandboxError {
  return internal(`Text '${s}' could not be parsed`, 'java.time.format.DateTimeParseException');
}

/** A UTC timestamp in microseconds as the participant prints it: seconds always, the fraction without trailing zeros. */
function formatMicros(micros: bigint): string {
  const ms = Number((micros - (((micros % 1000n) + 1000n) % 1000n)) / 1000n);
  const date = new Date(0);
  date.setTime(ms);
  const subMs = Number(((micros % 1000n) + 1000n) % 1000n);
  const iso = date.toISOString(); // ±YYYYYY for years outside 0–9999, never reached after the range check
  const base = iso.slice(0, 19);
  const fraction = `${iso.slice(20, 23)}${String(subMs).padStart(3, '0')}`.replace(/0+$/, '');
  return `${base}${fraction === '' ? '' : `.${fraction}`}Z`;
}

/** Microseconds since the epoch of a canonical timestamp (for ordering GenMap keys). */
function microsOf(canonical: string): bigint {
  const m = /^(.*?)(?:\.(\d+))?Z$/.exec(canonical);
  const base = BigInt(Date.parse(`${m?.[1] ?? ''}Z`)) * 1000n;
  return base + BigInt((m?.[2] ?? '').padEnd(6, '0').slice(0, 6) || '0');
}

/**
 * Type-checks a Daml value given as JSON against its Daml-LF type and renders it as the participant stores and
 * prints it, following the JSON API's codec and the checks after it (docs/sandbox.md#typed-creates):
 *
 * - JSON-layer errors are thrown at once, with the server's codes: a missing non-optional field
 *   `COMMAND_PREPROCESSING_FAILED` (`Missing non-optional fields: Set(a, b)`), a field the type lacks (with a
 *   non-null value) `INVALID_ARGUMENT` (`Unexpected fields: …`), an Int64 text that is not a long and a Numeric
 *   that is neither string nor number `INVALID_ARGUMENT`, a malformed variant `INVALID_ARGUMENT` (500 on 3.4),
 *   and a value of the wrong JSON kind, an unknown enum constructor or an unparsable date or timestamp the
 *   generic 500 `LEDGER_API_INTERNAL_ERROR` the server answers for them;
 * - problems the server finds later (a Numeric string it cannot read, a malformed party or contract id, a date
 *   out of range; a Numeric that does not fit its scale) are kept in {@link problem} for the caller to raise at
 *   their step, the first of each stage;
 * - the result is the participant's rendering: Int64 and Numeric canonical (full scale, `"42."` at scale 0),
 *   timestamps in UTC with the shortest fraction, TextMaps sorted by key, GenMaps sorted by key with the last of
 *   equal keys kept, records in declaration order without trailing `None` fields, nested Optionals as arrays.
 */
export class ValueTranscoder {
  private readonly types: ValueTypes;
  /** The first deferred problem of each stage found so far. */
  readonly problem: { validation?: DeferredValueProblem; preprocessing?: DeferredValueProblem } = {};

  constructor(types: ValueTypes) {
    this.types = types;
  }

  /** The value `json` of type `type` (closed: no free type variables), rendered; throws the JSON layer's errors. */
  transcode(type: LfType, json: unknown): unknown {
    return this.value(type, emptyEnv, json);
  }

  /** Orders two rendered values of `type` as Daml orders them (the order of GenMap keys). */
  compare(type: LfType, a: unknown, b: unknown): number {
    return this.compareIn(type, emptyEnv, a, b);
  }

  /**
   * The JSON text of a value `transcode` gave, as the participant prints it: like `JSON.stringify`, except that a
   * TextMap's keys come in code-point order (a JavaScript object would put integer-like keys first).
   */
  render(type: LfType, value: unknown): string {
    return this.renderIn(type, emptyEnv, value);
  }

  private renderIn(type: LfType, env0: Env, v: unknown): string {
    const { type: t, env } = this.resolve(type, env0);
    if (t.kind === 'con') {
      const { def, env: inner } = this.dataType(t, env);
      if (def.kind === 'record') {
        const fields = def.fields.filter((f) => Object.prototype.hasOwnProperty.call(v, f.name));
        return `{${fields.map((f) => `${JSON.stringify(f.name)}:${this.renderIn(f.type, inner, (v as Record<string, unknown>)[f.name])}`).join(',')}}`;
      }
      if (def.kind === 'variant') {
        const x = v as { tag: string; value: unknown };
        const c = def.constructors.find((k) => k.name === x.tag) as { type: LfType };
        return `{"tag":${JSON.stringify(x.tag)},"value":${this.renderIn(c.type, inner, x.value)}}`;
      }
      return JSON.stringify(v);
    }
    if (t.kind !== 'builtin') return JSON.stringify(v);
    const [a0, a1] = t.args as [LfType, LfType];
    switch (t.builtin) {
      case 'Optional':
        if (a0.kind === 'builtin' && a0.builtin === 'Optional') return (v as unknown[]).length === 0 ? '[]' : `[${this.renderIn(a0, env, (v as unknown[])[0])}]`;
        return v === null ? 'null' : this.renderIn(a0, env, v);
      case 'List':
        return `[${(v as unknown[]).map((x) => this.renderIn(a0, env, x)).join(',')}]`;
      case 'GenMap':
        return `[${(v as [unknown, unknown][]).map(([k, x]) => `[${this.renderIn(a0, env, k)},${this.renderIn(a1, env, x)}]`).join(',')}]`;
      case 'TextMap': {
        const entries = Object.entries(v as object).sort((p, q) => compareCodePoints(p[0], q[0]));
        return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${this.renderIn(a0, env, x)}`).join(',')}}`;
      }
      default:
        return JSON.stringify(v);
    }
  }

  private defer(stage: DeferredValueProblem['stage'], cause: string): void {
    this.problem[stage] ??= { stage, cause };
  }

  private resolve(type: LfType, env: Env): { type: LfType; env: Env } {
    let t = type;
    let e = env;
    while (t.kind === 'var') {
      const bound = e.get(t.name);
      if (!bound) throw internal(`unbound type variable ${t.name}`, 'java.lang.IllegalStateException');
      t = bound.type;
      e = bound.env;
    }
    return { type: t, env: e };
  }

  private dataType(type: Extract<LfType, { kind: 'con' }>, env: Env): { def: LfDataType; env: Env } {
    const def = this.types.dataType(type.packageId, type.qualifiedName);
    if (!def) throw internal(`unknown data type ${type.packageId}:${type.qualifiedName}`, 'java.lang.IllegalStateException');
    const inner = new Map<string, Bound>();
    def.params.forEach((p, i) => {
      const arg = type.args[i];
      if (arg) inner.set(p, { type: arg, env });
    });
    return { def, env: inner };
  }

  private isOptional(type: LfType, env: Env): boolean {
    const r = this.resolve(type, env);
    return r.type.kind === 'builtin' && r.type.builtin === 'Optional';
  }

  private value(type: LfType, env: Env, v: unknown): unknown {
    const r = this.resolve(type, env);
    const t = r.type;
    if (t.kind === 'con') return this.dataValue(t, r.env, v);
    if (t.kind !== 'builtin') throw internal(`a value of the unserializable type ${t.kind}`, 'java.lang.IllegalStateException');
    const [a0, a1] = t.args;
    switch (t.builtin) {
      case 'Unit':
        return {};
      case 'Bool':
        if (typeof v !== 'boolean') throw expected('Bool', v);
        return v;
      case 'Text':
        if (typeof v !== 'string') throw expected('Str', v);
        return v;
      case 'Int64': {
        if (typeof v !== 'string') throw expected('Str', v);
        const n = parseLong(v);
        if (n === undefined) throw requestErrors.jsonInvalidArgument(`For input string: "${v}"`);
        return n;
      }
      case 'Numeric':
        return this.numeric(a0?.kind === 'nat' ? a0.value : 10, v);
      case 'Party':
        if (typeof v !== 'string') throw expected('Str', v);
        this.checkParty(v);
        return v;
      case 'ContractId':
        if (typeof v !== 'string') throw expected('Str', v);
        if (!/^00(?:[0-9a-f]{2})+$/.test(v)) this.defer('validation', `cannot parse ContractId "${v}"`);
        return v;
      case 'Date':
        return this.date(v);
      case 'Timestamp':
        return this.timestamp(v);
      case 'Optional': {
        if (!a0) return null;
        if (a0.kind === 'builtin' && a0.builtin === 'Optional') return this.nestedOptional(t, r.env, v);
        return v === null || v === undefined ? null : this.value(a0, r.env, v);
      }
      case 'List':
        if (!Array.isArray(v)) throw expected('Arr', v);
        return v.map((x) => this.value(a0 as LfType, r.env, x));
      case 'TextMap': {
        if (!isObject(v)) throw expected('Obj', v);
        const entries = Object.entries(v).map(([k, x]) => [k, this.value(a0 as LfType, r.env, x)] as const);
        entries.sort((x, y) => compareCodePoints(x[0], y[0]));
        return Object.fromEntries(entries);
      }
      case 'GenMap': {
        if (!Array.isArray(v)) throw expected('Arr', v);
        const entries: [unknown, unknown][] = [];
        for (const e of v) {
          if (!Array.isArray(e)) throw expected('Arr', e);
          if (e.length < 2) throw internal(`Index ${e.length} out of bounds for length ${e.length}`, 'java.lang.IndexOutOfBoundsException');
          entries.push([this.value(a0 as LfType, r.env, e[0]), this.value(a1 as LfType, r.env, e[1])]);
        }
        // the engine keeps a map ordered by key; of equal keys the last wins (the sort is stable)
        entries.sort((x, y) => this.compareIn(a0 as LfType, r.env, x[0], y[0]));
        return entries.filter((e, i) => {
          const next = entries[i + 1];
          return next === undefined || this.compareIn(a0 as LfType, r.env, e[0], next[0]) !== 0;
        });
      }
    }
  }

  /** `Optional (Optional …)`: arrays at every level of the stack, `[]` for None, `[x]` for Some x. */
  private nestedOptional(type: Extract<LfType, { kind: 'builtin' }>, env: Env, v: unknown): unknown[] {
    if (!Array.isArray(v)) throw expected('Arr', v);
    if (v.length === 0) return [];
    const elem = type.args[0] as LfType;
    return [elem.kind === 'builtin' && elem.builtin === 'Optional' ? this.nestedOptional(elem, env, v[0]) : this.value(elem, env, v[0])];
  }

  private numeric(scale: number, v: unknown): string {
    let s: string;
    if (typeof v === 'number') s = javaDouble(v);
    else if (typeof v === 'string') s = v;
    else throw requestErrors.jsonInvalidArgument(`${ujsonText(v)} is not a valid numeric value`);
    if (!numericPattern.test(s) || precision(parseDecimal(s)) > 38) {
      this.defer('validation', `Could not read Numeric string "${s}"`);
      return s;
    }
    const d = parseDecimal(s);
    const significantScale = d.scale - (/0*$/.exec(d.digits)?.[0].length ?? 0);
    if (significantScale > scale && /[1-9]/.test(d.digits)) {
      this.defer('preprocessing', `Cannot represent ${plainString(d)} as (Numeric ${scale}) without loss of precision`);
      return s;
    }
    const digits = d.scale >= scale ? d.digits.slice(0, d.digits.length - (d.scale - scale)) || '0' : `${d.digits}${'0'.repeat(scale - d.scale)}`;
    const scaled: Decimal = { negative: d.negative && /[1-9]/.test(digits), digits, scale };
    if (precision(scaled) > 38) {
      this.defer('preprocessing', `Out-of-bounds (Numeric ${scale}) ${plainString(scaled)}`);
      return s;
    }
    return plainString(scaled);
  }

  private checkParty(p: string): void {
    if (p.length === 0) this.defer('validation', 'Daml-LF Party is empty');
    else if (p.length > 255) this.defer('validation', 'Daml-LF Party is too long (max: 255)');
    else {
      const bad = /[^a-zA-Z0-9:\-_ ]/.exec(p);
      if (bad) this.defer('validation', `non expected character 0x${bad[0].charCodeAt(0).toString(16)} in Daml-LF Party "${p}"`);
    }
  }

  private date(v: unknown): string {
    if (typeof v !== 'string') throw expected('Str', v);
    const m = datePattern.exec(v);
    const [y, mo, d] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
    if (!m || !validDate(y, mo, d)) throw parseError(v);
    const day = epochDay(y, mo, d);
    if (day < minDate || day > maxDate) this.defer('validation', `out of bound Date ${day}`);
    return v;
  }

  private timestamp(v: unknown): string {
    if (typeof v !== 'string') throw expected('Str', v);
    const m = timestampPattern.exec(v);
    if (!m) throw parseError(v);
    const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
    if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 59) throw parseError(v);
    const offsetSeconds = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60 + Number(m[12] ?? 0));
    if (Math.abs(offsetSeconds) > 18 * 3600) throw parseError(v);
    const seconds = BigInt(epochDay(y, mo, d)) * 86_400n + BigInt(h * 3600 + mi * 60 + s - offsetSeconds);
    const micros = seconds * 1_000_000n + BigInt((m[7] ?? '').padEnd(6, '0').slice(0, 6));
    if (micros < minMicros || micros > maxMicros) {
      this.defer('validation', `out of bound Timestamp ${micros}`);
      return v;
    }
    return formatMicros(micros);
  }

  private dataValue(type: Extract<LfType, { kind: 'con' }>, callerEnv: Env, v: unknown): unknown {
    const { def, env } = this.dataType(type, callerEnv);
    switch (def.kind) {
      case 'record': {
        if (!isObject(v)) throw expected('Obj', v);
        const missing = def.fields.filter((f) => !this.isOptional(f.type, env) && !Object.prototype.hasOwnProperty.call(v, f.name)).map((f) => f.name);
        if (missing.length > 0) throw SandboxError.jsonLayer(ErrorDefs.COMMAND_PREPROCESSING_FAILED, `Missing non-optional fields: Set(${missing.join(', ')})`);
        const names = new Set(def.fields.map((f) => f.name));
        const unexpected = Object.keys(v).filter((k) => !names.has(k) && v[k] !== null);
        if (unexpected.length > 0) throw requestErrors.jsonInvalidArgument(`Unexpected fields: ${unexpected.join('')}`);
        const out: [string, unknown][] = def.fields.map((f) => [f.name, this.value(f.type, env, Object.prototype.hasOwnProperty.call(v, f.name) ? v[f.name] : null)]);
        while (out.length > 0 && out[out.length - 1]?.[1] === null) out.pop();
        return Object.fromEntries(out);
      }
      case 'variant': {
        if (!isObject(v) || !('tag' in v) || !('value' in v)) throw this.variantError(`Variant type json must have 'tag' and 'value' fields.`);
        if (typeof v['tag'] !== 'string') throw expected('Str', v['tag']);
        const tag = v['tag'];
        const constructor = def.constructors.find((c) => c.name === tag);
        if (!constructor) throw this.variantError(`Unexpected variant tag: ${tag}`);
        return { tag, value: this.value(constructor.type, env, v['value']) };
      }
      case 'enum':
        if (typeof v !== 'string') throw expected('Str', v);
        if (!def.constructors.includes(v)) throw internal(`Unexpected case: ${v}`, 'java.lang.Exception');
        return v;
      case 'interface':
        throw internal(`a value of the interface type ${type.qualifiedName}`, 'java.lang.IllegalStateException');
    }
  }

  private variantError(message: string): SandboxError {
    return this.types.variantErrorIs500
      ? internal(message, 'com.digitalasset.transcode.IncorrectVariantRepresentationException')
      : requestErrors.jsonInvalidArgument(message);
  }

  private compareIn(type: LfType, env0: Env, a: unknown, b: unknown): number {
    const { type: t, env } = this.resolve(type, env0);
    if (t.kind === 'con') {
      const { def, env: inner } = this.dataType(t, env);
      if (def.kind === 'enum') return def.constructors.indexOf(a as string) - def.constructors.indexOf(b as string);
      if (def.kind === 'variant') {
        const x = a as { tag: string; value: unknown };
        const y = b as { tag: string; value: unknown };
        const ix = def.constructors.findIndex((c) => c.name === x.tag);
        const iy = def.constructors.findIndex((c) => c.name === y.tag);
        if (ix !== iy) return ix - iy;
        return this.compareIn((def.constructors[ix] as { type: LfType }).type, inner, x.value, y.value);
      }
      if (def.kind === 'record') {
        const x = a as Record<string, unknown>;
        const y = b as Record<string, unknown>;
        for (const f of def.fields) {
          const c = this.compareIn(f.type, inner, x[f.name] ?? null, y[f.name] ?? null);
          if (c !== 0) return c;
        }
      }
      return 0;
    }
    if (t.kind !== 'builtin') return 0;
    const [a0, a1] = t.args;
    switch (t.builtin) {
      case 'Unit':
        return 0;
      case 'Bool':
        return Number(a) - Number(b);
      case 'Int64': {
        const [x, y] = [BigInt(a as string), BigInt(b as string)];
        return x < y ? -1 : x > y ? 1 : 0;
      }
      case 'Numeric': {
        // same scale: compare the unscaled integers
        const [x, y] = [BigInt((a as string).replace('.', '')), BigInt((b as string).replace('.', ''))];
        return x < y ? -1 : x > y ? 1 : 0;
      }
      case 'Timestamp': {
        const [x, y] = [microsOf(a as string), microsOf(b as string)];
        return x < y ? -1 : x > y ? 1 : 0;
      }
      case 'Text':
      case 'Party':
      case 'Date':
      case 'ContractId':
        return compareCodePoints(a as string, b as string);
      case 'Optional': {
        const nested = a0?.kind === 'builtin' && a0.builtin === 'Optional';
        const none = (v: unknown) => (nested ? (v as unknown[]).length === 0 : v === null);
        if (none(a) || none(b)) return Number(!none(a)) - Number(!none(b));
        return this.compareIn(a0 as LfType, env, nested ? (a as unknown[])[0] : a, nested ? (b as unknown[])[0] : b);
      }
      case 'List':
      case 'GenMap':
      case 'TextMap': {
        const pairs = (v: unknown): [unknown, unknown][] =>
          t.builtin === 'List' ? (v as unknown[]).map((x) => [x, null]) : t.builtin === 'GenMap' ? (v as [unknown, unknown][]) : Object.entries(v as object).sort((p, q) => compareCodePoints(p[0], q[0]));
        const [x, y] = [pairs(a), pairs(b)];
        for (let i = 0; i < Math.min(x.length, y.length); i++) {
          const [kx, vx] = x[i] as [unknown, unknown];
          const [ky, vy] = y[i] as [unknown, unknown];
          const keyType: LfType = t.builtin === 'TextMap' ? { kind: 'builtin', builtin: 'Text', args: [] } : (a0 as LfType);
          const c = this.compareIn(keyType, env, kx, ky);
          if (c !== 0) return c;
          if (t.builtin !== 'List') {
            const cv = this.compareIn((t.builtin === 'TextMap' ? a0 : a1) as LfType, env, vx, vy);
            if (cv !== 0) return cv;
          }
        }
        return x.length - y.length;
      }
    }
  }
}
