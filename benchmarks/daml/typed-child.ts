/**
 * The child process of the typed-read part of daml.bench.ts: CPU per event of reading created events typed
 * (`createdOf(RichRecord)`: each payload checked by the template's generated schema) against reading them
 * untyped (the same elements, the created events of the template picked by package name and qualified name, the
 * payload left `unknown`), both on the client's decoding path (`observeJsonArrayBody` + `decodeUpdateElement`,
 * validated, as `client.updates` decodes), from the same body in memory, in 64 KiB chunks.
 *
 *     node typed-child.js <events> <rounds>
 *
 * Warms both paths up on a tenth of the body, then runs `rounds` rounds of (untyped, typed) over the whole body,
 * alternating which goes first, and prints one JSON line: per round and path, CPU µs per event
 * (`process.cpuUsage`, user + system) and the number of payloads read.
 */
import { Readable } from 'node:stream';
import { decodeUpdateElement, observeJsonArrayBody, type JsGetUpdatesResponse } from 'ledger-rx';
import * as d from 'ledger-rx/daml';
import { lastValueFrom, map, mergeMap, type Observable, reduce } from 'rxjs';
import { mulberry32 } from '../lib/mulberry32.js';

// ---- what `ledger-rx codegen` writes for richtypes' RichRecord (RichTypes.ts), declared here as it generates it ----
type Marker = { owner: d.Party };
type Profile = { nickname: string; level: d.Int64 };
type OutcomeWin = { prize: d.Numeric; tier: string };
type Outcome = { readonly tag: 'Win'; readonly value: OutcomeWin } | { readonly tag: 'Pending'; readonly value: d.Unit };
type RichRecord = {
  owner: d.Party; count: d.Int64; amount: d.Numeric; label: string; active: boolean; asOf: d.DamlDate; observedAt: d.Timestamp;
  note: d.Optional<string>; tags: string[]; attributes: d.TextMap<string>; marker: d.ContractId<Marker>; profile: Profile; outcome: Outcome; fee: d.Numeric;
};
const Profile: d.Schema<Profile> = d.record<Profile>({ nickname: d.text, level: d.int64 });
const OutcomeWin: d.Schema<OutcomeWin> = d.record<OutcomeWin>({ prize: d.numeric(2), tier: d.text });
const Outcome: d.Schema<Outcome> = d.variantOf<Outcome>({ Win: d.lazy(() => OutcomeWin), Pending: d.unit });
const packageId = '9fbb9c81a2f951e871e72723d952fa879c49a90514647b9b496c52251b63cf8f';
const RichRecord = d.template({
  packageId,
  packageName: 'richtypes',
  moduleName: 'RichTypes',
  entityName: 'RichRecord',
  schema: d.record<RichRecord>({
    owner: d.party, count: d.int64, amount: d.numeric(10), label: d.text, active: d.bool, asOf: d.date, observedAt: d.timestamp,
    note: d.optional(d.text), tags: d.list(d.text), attributes: d.textMap(d.text), marker: d.contractId<Marker>(),
    profile: d.lazy(() => Profile), outcome: d.lazy(() => Outcome), fee: d.numeric(2),
  }),
  choices: {},
  implements: [],
});

/** `count` transactions of one RichRecord create each, as the participant sends them (a `POST /v2/updates` body). */
function body(count: number): Uint8Array {
  const r = mulberry32(23);
  const word = () => Math.floor(r() * 36 ** 6).toString(36);
  const parts: string[] = [];
  for (let i = 1; i <= count; i++) {
    const payload = {
      owner: `Alice::1220${'ab'.repeat(32)}`, count: String(Math.floor(r() * 1e12)), amount: `${Math.floor(r() * 1e6)}.${String(Math.floor(r() * 1e10)).padStart(10, '0')}`,
      label: word(), active: r() < 0.5, asOf: '2026-07-03', observedAt: `2026-07-03T10:15:${String(Math.floor(r() * 60)).padStart(2, '0')}.5Z`,
      note: r() < 0.5 ? null : word(), tags: [word(), word()], attributes: { colour: word(), size: word() }, marker: `00${'cd'.repeat(33)}`,
      profile: { nickname: word(), level: String(Math.floor(r() * 100)) },
      outcome: r() < 0.5 ? { tag: 'Win', value: { prize: '2.50', tier: word() } } : { tag: 'Pending', value: {} },
      fee: '0.10',
    };
    const created = {
      offset: i, nodeId: 0, contractId: `00${i.toString(16).padStart(64, '0')}`, templateId: `${packageId}:RichTypes:RichRecord`, contractKey: null,
      createArgument: payload, createdEventBlob: '', interfaceViews: [], witnessParties: ['Alice::1220ab'], signatories: ['Alice::1220ab'], observers: [],
      createdAt: '2026-07-03T10:15:30.500Z', packageName: 'richtypes', representativePackageId: packageId, acsDelta: true,
    };
    const tx = {
      updateId: `1220${i.toString(16).padStart(64, '0')}`, commandId: '', workflowId: '', effectiveAt: '2026-07-03T10:15:30.500Z', events: [{ CreatedEvent: created }],
      offset: i, synchronizerId: 'global::1220ab', traceContext: null, recordTime: '2026-07-03T10:15:30.500Z', externalTransactionHash: null,
    };
    parts.push(JSON.stringify({ update: { Transaction: { value: tx } } }));
  }
  return new TextEncoder().encode(`[${parts.join(',')}]`);
}

const CHUNK = 64 * 1024;
function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

/** The client's decoding: elements validated by the wire schema. */
const elements = (chunks: readonly Uint8Array[]): Observable<JsGetUpdatesResponse> => observeJsonArrayBody(Readable.from(chunks), (v, i) => decodeUpdateElement(v, i, { validate: true }));

/** Untyped: the created events of RichRecord (package name and qualified name), payload as the wire has it. */
function untyped(chunks: readonly Uint8Array[]): Promise<number> {
  const suffix = ':RichTypes:RichRecord';
  return lastValueFrom(
    elements(chunks).pipe(
      mergeMap((e) => {
        const tx = (e.update as { Transaction?: { value: { events: Record<string, { packageName: string; templateId: string; contractId: string; createArgument: unknown }>[] } } }).Transaction;
        const out: { contractId: string; payload: unknown }[] = [];
        for (const ev of tx?.value.events ?? []) {
          const c = ev['CreatedEvent'];
          if (c !== undefined && c.packageName === 'richtypes' && c.templateId.endsWith(suffix)) out.push({ contractId: c.contractId, payload: c.createArgument });
        }
        return out;
      }),
      reduce((n) => n + 1, 0),
    ),
  );
}

/** Typed: `createdOf(RichRecord)`, each payload checked by the generated schema. */
function typed(chunks: readonly Uint8Array[]): Promise<number> {
  return lastValueFrom(elements(chunks).pipe(d.createdOf(RichRecord), map((c) => c.payload), reduce((n) => n + 1, 0)));
}

async function cpuMicros(run: () => Promise<number>, events: number): Promise<{ usPerEvent: number; read: number }> {
  const before = process.cpuUsage();
  const read = await run();
  const used = process.cpuUsage(before);
  return { usPerEvent: (used.user + used.system) / events, read };
}

async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 100_000);
  const rounds = Number(process.argv[3] ?? 5);
  const chunks = chunksOf(body(events));
  const warm = chunksOf(body(Math.max(1, Math.floor(events / 10))));
  await untyped(warm);
  await typed(warm);
  const out: { untyped: number; typed: number; read: [number, number] }[] = [];
  for (let i = 0; i < rounds; i++) {
    const first = i % 2 === 0 ? 'untyped' : 'typed';
    const a = await cpuMicros(() => (first === 'untyped' ? untyped(chunks) : typed(chunks)), events);
    const b = await cpuMicros(() => (first === 'untyped' ? typed(chunks) : untyped(chunks)), events);
    const [u, t] = first === 'untyped' ? [a, b] : [b, a];
    out.push({ untyped: u.usPerEvent, typed: t.usPerEvent, read: [u.read, t.read] });
  }
  process.stdout.write(`${JSON.stringify({ events, bytes: chunks.reduce((n, c) => n + c.length, 0), rounds: out })}\n`);
}

await main();
