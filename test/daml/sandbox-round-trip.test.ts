import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypeScript } from '../../src/cli/codegen/generate-typescript.js';
import { createLedgerClient, type LedgerClient } from '../../src/client/index.js';
import * as d from '../../src/daml/index.js';
import { updateFormat } from '../../src/filters/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { repoRoot, sharedAvailable, sharedDir } from '../support/shared-dir.js';

/**
 * The round trip of issue 23, property-based: random values of every type `ledger-rx codegen` generates for the
 * richtypes DAR (the templates RichRecord and Marker, and inside RichRecord the record Profile, the variant
 * Outcome with its record constructor Outcome.Win, Optional, List, TextMap, ContractId, Numeric 10 and 2, Int64,
 * Date, Timestamp, Party, Text, Bool), created through the generated `T.create`, submitted by our client to an
 * in-process sandbox started with the DAR (which type-checks them against it), read back through `createdOf(T)`
 * and through `liveContractsOf`: equal to the values sent. Then `T.exercise('Archive', …)` on half of them, read
 * back through `archivedOf(T)` and `exercisedOf(T.choices.Archive)`, and the live set without them.
 */
const available = sharedAvailable('dars/richtypes.dar', 'the typed round trip');
const darPath = join(sharedDir ?? '', 'dars', 'richtypes.dar');

type Party = string;
type Outcome = { readonly tag: 'Win'; readonly value: { prize: string; tier: string } } | { readonly tag: 'Pending'; readonly value: d.Unit };
type RichRecord = {
  owner: Party;
  count: string;
  amount: string;
  label: string;
  active: boolean;
  asOf: string;
  observedAt: string;
  note: string | null;
  tags: string[];
  attributes: Record<string, string>;
  marker: d.ContractId<Marker>;
  profile: { nickname: string; level: string };
  outcome: Outcome;
  fee: string;
};
type Marker = { owner: Party };
/** The generated module, as this test uses it (the generated file declares exactly these types: see codegen.test.ts). */
interface RichTypesModule {
  readonly RichRecord: d.Template<RichRecord, { readonly Archive: d.Choice<Record<string, never>, d.Unit>; readonly Relabel: d.Choice<{ newLabel: string }, d.ContractId<RichRecord>> }>;
  readonly Marker: d.Template<Marker, { readonly Archive: d.Choice<Record<string, never>, d.Unit> }>;
}

let sandbox: Sandbox;
let client: LedgerClient;
let alice: string;
let bob: string;
let gen: RichTypesModule;
let outDir: string;
let commandCounter = 0;
const markers: d.ContractId<Marker>[] = [];

// ---- arbitraries of the participant's canonical JSON, built from their parts (not with the sandbox's code) ----

/** A Numeric of `scale` as the participant prints it: every fraction digit, a trailing dot at scale 0. */
const numeric = (scale: number) =>
  fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }).map((unscaled) => {
    const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
    return `${unscaled < 0n ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  });
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
const text = fc.string({ unit: 'binary', maxLength: 12 });
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const ymd = fc.record({ y: fc.integer({ min: 1, max: 9999 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) });
const date = ymd.map(({ y, m, d }) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
/** Seconds always, the fraction with 0–6 digits and no trailing zero, `Z`. */
const timestamp = fc
  .record({ date, h: fc.integer({ min: 0, max: 23 }), mi: fc.integer({ min: 0, max: 59 }), s: fc.integer({ min: 0, max: 59 }), micros: fc.integer({ min: 0, max: 999_999 }) })
  .map(({ date, h, mi, s, micros }) => {
    const fraction = pad(micros, 6).replace(/0+$/, '');
    return `${date}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${fraction === '' ? '' : `.${fraction}`}Z`;
  });
const partyString = fc.stringMatching(/^[A-Za-z0-9:_ -]{1,40}$/);

function richRecord(): fc.Arbitrary<RichRecord> {
  const outcome: fc.Arbitrary<Outcome> = fc.oneof(
    fc.record({ tag: fc.constant('Win' as const), value: fc.record({ prize: numeric(2), tier: text }) }),
    fc.constant({ tag: 'Pending' as const, value: {} }),
  );
  return fc.record({
    owner: fc.oneof(fc.constantFrom(alice, bob), partyString),
    count: int64,
    amount: numeric(10),
    label: text,
    active: fc.boolean(),
    asOf: date,
    observedAt: timestamp,
    note: fc.option(text, { nil: null }),
    tags: fc.array(text, { maxLength: 4 }),
    attributes: fc.dictionary(text.filter((k) => k !== '__proto__'), text, { maxKeys: 4, noNullPrototype: true }),
    marker: fc.constantFrom(...markers),
    profile: fc.record({ nickname: text, level: int64 }),
    outcome,
    fee: numeric(2),
  });
}

async function submit(commands: unknown[]): Promise<{ before: number; after: number }> {
  const before = sandbox.ledgerEnd();
  await client.submit({ commands: commands as never, commandId: `round-trip-${++commandCounter}`, actAs: [alice], userId: 'participant_admin' });
  return { before, after: sandbox.ledgerEnd() };
}

/** The update elements of `(before, after]` visible to Alice, read by our client with a filter on `template`. */
function read(range: { before: number; after: number }, template: d.Template<unknown, d.ChoiceMap>, shape: 'acs-delta' | 'ledger-effects' = 'acs-delta') {
  return client.updates({
    beginExclusive: range.before,
    endInclusive: range.after,
    updateFormat: updateFormat()
      .transactions((t) => t.parties(alice).template(template).shape(shape))
      .build(),
  });
}

beforeAll(async () => {
  if (!available) return;
  sandbox = await startSandbox({ dars: [darPath] });
  client = createLedgerClient({ baseUrl: sandbox.url });
  [alice, bob] = [sandbox.partyId('Alice'), sandbox.partyId('Bob')];
  // the generator of `ledger-rx codegen`, on the DAR, into a scratch directory; the runtime from this checkout
  outDir = join(repoRoot, '.tmp', `round-trip-${process.pid}`);
  const files = generateTypeScript([await d.readDarFile(darPath)], { runtimeModule: join(repoRoot, 'src', 'daml', 'index.js') });
  for (const f of files) {
    await mkdir(dirname(join(outDir, f.path)), { recursive: true });
    await writeFile(join(outDir, f.path), f.content);
  }
  gen = (await import(join(outDir, 'richtypes', 'RichTypes.ts'))) as RichTypesModule;
  for (let i = 0; i < 3; i++) {
    const range = await submit([gen.Marker.create({ owner: alice })]);
    const [created] = await lastValueFrom(read(range, gen.Marker as d.Template<unknown, d.ChoiceMap>).pipe(d.createdOf(gen.Marker), toArray()));
    expect(created?.payload).toEqual({ owner: alice });
    markers.push(created!.contractId);
  }
}, 60_000);
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe.runIf(available)('typed round trip through the sandbox (richtypes)', () => {
  const sent = new Map<string, RichRecord>();

  it('T.create(value) → sandbox → createdOf(T) gives the value back', async () => {
    await fc.assert(
      fc.asyncProperty(richRecord(), async (payload) => {
        const range = await submit([gen.RichRecord.create(payload)]);
        const created = await lastValueFrom(read(range, gen.RichRecord as d.Template<unknown, d.ChoiceMap>).pipe(d.createdOf(gen.RichRecord), toArray()));
        expect(created).toHaveLength(1);
        expect(created[0]!.payload).toEqual(payload);
        sent.set(created[0]!.contractId, payload);
      }),
      { numRuns: 60, seed: 23, endOnFailure: true },
    );
  }, 120_000);

  it('liveContractsOf(T) holds exactly the values sent; after Archive through T.exercise, exactly the others', async () => {
    expect(sent.size).toBe(60);
    const live = async () => {
      const states = await lastValueFrom(d.liveContractsOf(client, { template: gen.RichRecord, parties: [alice], endInclusive: sandbox.ledgerEnd() }).pipe(toArray()));
      return new Map([...states.at(-1)!.contracts].map(([id, c]) => [id as string, c.payload]));
    };
    expect(await live()).toEqual(sent);

    const archived = [...sent.keys()].filter((_, i) => i % 2 === 0) as d.ContractId<RichRecord>[];
    const range = await submit(archived.map((id) => gen.RichRecord.exercise('Archive', id, {})));
    const gone = await lastValueFrom(read(range, gen.RichRecord as d.Template<unknown, d.ChoiceMap>).pipe(d.archivedOf(gen.RichRecord), toArray()));
    expect(gone.map((a) => a.contractId)).toEqual(archived);
    const exercised = await lastValueFrom(read(range, gen.RichRecord as d.Template<unknown, d.ChoiceMap>, 'ledger-effects').pipe(d.exercisedOf(gen.RichRecord.choices.Archive), toArray()));
    expect(exercised.map((e) => [e.contractId, e.argument, e.result])).toEqual(archived.map((id) => [id, {}, {}]));

    for (const id of archived) sent.delete(id);
    expect(await live()).toEqual(sent);
  }, 120_000);
});
