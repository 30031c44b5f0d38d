import type { Ledger } from '../ledger/ledger.js';
import type { CompiledEventFormat } from '../format/compile-event-format.js';
import { contractKeyHash } from '../ledger/contract-key-of.js';
import { formatInstant } from './format-instant.js';
import type { EventMatch } from '../format/match-event.js';
import type { ContractRecord, SubmissionRecord } from '../ledger/update-record.js';

/**
 * Ascending char offsets that cut an element's text into pieces, at the edges of the user's text in it
 * (create arguments). Encoding each piece to UTF-8 on its own gives the same bytes as encoding the whole
 * text (a cut never falls inside a character: it sits between two JSON tokens), and is cheaper: V8 copies
 * a piece of only ASCII characters as it is, but encodes character by character a whole text that holds a
 * single non-ASCII one (docs/benchmarks.md#sandbox-serving-cost).
 */
export type TextCuts = number[];

const hostedCache = new WeakMap<readonly string[], readonly string[]>();
const arrayJsonCache = new WeakMap<readonly string[], string>();

function arrayJson(a: readonly string[]): string {
  let s = arrayJsonCache.get(a);
  if (s === undefined) {
    s = JSON.stringify(a);
    arrayJsonCache.set(a, s);
  }
  return s;
}

/**
 * The parties of `parties` hosted on this participant: a participant reports only its own parties as
 * witnesses, also to any-party readers. Cached per (shared, immutable) array.
 */
function hostedOnly(ledger: Ledger, parties: readonly string[]): readonly string[] {
  let h = hostedCache.get(parties);
  if (h === undefined) {
    h = parties.filter((p) => ledger.parties.get(p)?.isLocal === true);
    if (h.length === parties.length) h = parties;
    hostedCache.set(parties, h);
  }
  return h;
}

const syncJsonCache = new WeakMap<object, string>();

function syncIdJson(ledger: Ledger, index: number): string {
  const s = ledger.synchronizers[index];
  if (!s) return '""';
  let json = syncJsonCache.get(s);
  if (json === undefined) {
    json = JSON.stringify(s.id);
    syncJsonCache.set(s, json);
  }
  return json;
}

function traceContextJson(s: SubmissionRecord): string {
  if (s.traceparent === undefined) return 'null';
  return `{"traceparent":${JSON.stringify(s.traceparent)},"tracestate":${s.tracestate === undefined ? 'null' : JSON.stringify(s.tracestate)}}`;
}

/** `commandId` is shown only to readers among the submitting parties (`""` otherwise). */
function commandIdJson(s: SubmissionRecord, offset: number, reader: CompiledEventFormat | undefined, force = false): string {
  const visible = force || (reader !== undefined && s.actAs.some((p) => reader.reads(p)));
  if (!visible) return '""';
  return s.derivedCommandId ? `"seed-${offset}"` : JSON.stringify(s.commandId);
}

/** A traffic cost that looks plausible and costs nothing to store. */
function trafficCost(offset: number): number {
  return 1_000 + (offset % 9_973);
}

/** The `createdEventBlob` the sandbox issues: base64 of the contract's identity and argument (opaque to clients). */
function createdEventBlob(contractId: string, c: ContractRecord): string {
  return Buffer.from(`{"contractId":"${contractId}","templateId":${c.template.templateIdJson},"createArgument":${c.argumentJson}}`).toString('base64');
}

function viewValueJson(c: ContractRecord, fields: readonly string[]): string {
  const arg = c.argument;
  const view: Record<string, unknown> = {};
  if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) {
    for (const f of fields) if (Object.prototype.hasOwnProperty.call(arg, f)) view[f] = (arg as Record<string, unknown>)[f];
  }
  return JSON.stringify(view);
}

/** The status message of an interface view the sandbox cannot compute (docs/sandbox.md#typed-creates). */
function unrunnableView(interfaceId: string): string {
  return `DAML_INTERPRETATION_ERROR(9,0): Interpretation error: Error: the ledger-rx sandbox does not run Daml code: the view of interface ${interfaceId} cannot be computed`;
}

/**
 * The fields of a `CreatedEvent` (without the `{"CreatedEvent": ...}` wrapper). With `cuts`, pushes the
 * char offsets (from `at`, where the caller places the returned text) at which the create argument starts
 * and ends: the user's text, where non-ASCII characters are (see {@link TextCuts}).
 */
function createdEventJson(
  ledger: Ledger,
  c: ContractRecord,
  offset: number,
  nodeId: number,
  createdAtMs: number,
  m: EventMatch,
  acsDelta: boolean,
  cuts?: TextCuts,
  at = 0,
): string {
  const cid = ledger.ids.contractId(c.createdOffset, c.nodeId);
  const t = c.template;
  let views = '[]';
  if (m.views.length > 0) {
    const implementation = ledger.api.fieldsOf35 ? `,"implementationPackageId":"${t.packageId}"` : '';
    views = `[${m.views
      .map((v) =>
        v.def.view === undefined
          ? `{"interfaceId":${JSON.stringify(v.interfaceId)},"viewStatus":{"code":0,"message":"","details":[]},` +
            `"viewValue":${viewValueJson(c, v.def.viewFields)}${implementation}}`
          : // a DAR interface's view is computed by Daml code, which the sandbox does not run: a failed view, value null
            `{"interfaceId":${JSON.stringify(v.interfaceId)},"viewStatus":{"code":9,"message":${JSON.stringify(unrunnableView(v.interfaceId))},"details":[]},"viewValue":null${implementation}}`,
      )
      .join(',')}]`;
  }
  const head =
    `{"offset":${offset},"nodeId":${nodeId},"contractId":"${cid}","templateId":${t.templateIdJson},` +
    `"contractKey":${c.key ?? 'null'},${ledger.api.fieldsOf35 ? `"contractKeyHash":"${c.key === undefined ? '' : contractKeyHash(t, c.key)}",` : ''}` +
    `"createArgument":`;
  if (cuts !== undefined) cuts.push(at + head.length, at + head.length + c.argumentJson.length);
  return (
    head +
    `${c.argumentJson},"createdEventBlob":"${m.blob ? createdEventBlob(cid, c) : ''}",` +
    `"interfaceViews":${views},"witnessParties":${arrayJson(m.parties)},"signatories":${arrayJson(c.signatories)},` +
    `"observers":${arrayJson(c.observers)},"createdAt":"${formatInstant(createdAtMs)}","packageName":${t.packageNameJson},` +
    `"representativePackageId":"${t.packageId}","acsDelta":${acsDelta}}`
  );
}

/**
 * The pieces the update renderers share, as JSON text: party lists (cached per shared array), the hosted
 * witnesses of a party list, synchronizer ids, trace contexts, the command id as a reader sees it, traffic
 * costs, created-event blobs and whole `CreatedEvent` bodies.
 */
export const jsonPieces = {
  arrayJson,
  hostedOnly,
  syncIdJson,
  traceContextJson,
  commandIdJson,
  trafficCost,
  createdEventBlob,
  createdEventJson,
};
