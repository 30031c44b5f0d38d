/**
 * A deterministic generator of realistic `POST /v2/updates` response bodies, for benchmarks.
 *
 * The body is what a Canton participant sends for an ACS-delta / ledger-effects subscription: a compact JSON
 * array of `JsGetUpdatesResponse` elements, every field present (absent optionals as `null`), int64s as JSON
 * numbers, Daml values in the transcode JSON encoding (Int64 and Numeric as strings, records as objects, GenMap as
 * arrays of pairs, Optional as `null` or the value). Mostly transactions with 1–6 events, with occasional
 * reassignments, topology transactions and offset checkpoints; offsets strictly increase. The average element
 * is about 4.7 KB. The same `seed` always yields the same bytes.
 */
import { mulberry32 } from './mulberry32.js';

/** The result of {@link generateRealisticUpdatesBody}. */
export interface RealisticUpdatesBody {
  /** The UTF-8 bytes of the JSON array. */
  readonly body: Buffer;
  /** Number of elements in the array. */
  readonly elementCount: number;
  /** `[start, end)` byte range of every element in `body`, as consecutive pairs. */
  readonly elementRanges: Float64Array;
  /** Offset of the last element. */
  readonly lastOffset: number;
}

/** Generates a body of at least `targetBytes` bytes (it stops at the first element that reaches the target). */
export function generateRealisticUpdatesBody(targetBytes: number, seed = 20260630): RealisticUpdatesBody {
  const gen = new UpdateGenerator(seed);
  const slack = 4 * 1024 * 1024;
  const body = Buffer.allocUnsafe(targetBytes + slack);
  let ranges = new Float64Array(1024);
  let count = 0;
  let pos = body.write('[', 0, 'latin1');
  while (pos < targetBytes || count === 0) {
    if (count > 0) pos += body.write(',', pos, 'latin1');
    const text = gen.nextElement();
    const len = Buffer.byteLength(text, 'utf8');
    if (pos + len + 1 > body.length) throw new Error('element larger than the generator slack');
    if (2 * count + 2 > ranges.length) {
      const grown = new Float64Array(ranges.length * 2);
      grown.set(ranges);
      ranges = grown;
    }
    ranges[2 * count] = pos;
    pos += body.write(text, pos, 'utf8');
    ranges[2 * count + 1] = pos;
    count++;
  }
  pos += body.write(']', pos, 'latin1');
  return {
    body: body.subarray(0, pos),
    elementCount: count,
    elementRanges: ranges.subarray(0, 2 * count),
    lastOffset: gen.offset,
  };
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const firstNames = ['Alice', 'Bob', 'Charlie', 'Dora', 'Emil', 'Fatima', 'Gao', 'Hannah', 'Ivan', 'Jules', 'dso', 'validator-1', 'sv-2', 'treasury', 'custodian'];
const modules = [
  ['Splice.Amulet', ['Amulet', 'LockedAmulet', 'AppRewardCoupon', 'ValidatorRewardCoupon']],
  ['Splice.AmuletRules', ['TransferPreapproval', 'AmuletRules']],
  ['Daml.Finance.Holding.Fungible', ['Fungible', 'Transferable']],
  ['Trade.Settlement', ['SettlementInstruction', 'Batch', 'Allocation']],
  ['Registry.Asset', ['AssetDefinition', 'Issuance']],
] as const;
const packageNames = ['splice-amulet', 'splice-wallet', 'daml-finance-holding', 'trade-settlement', 'asset-registry'];
const choices = ['Transfer', 'Archive', 'Split', 'Merge', 'Settle', 'Allocate', 'AmuletRules_Transfer', 'Lock', 'Unlock'];
const texts = [
  'Quarterly settlement for the Zürich desk',
  'Règlement interbancaire — lot n°42',
  '東京支店への送金 (batch 7)',
  'Ausgleichszahlung Q3, Straße 12',
  'rebalancing after audit ✅',
  'transfer to cold wallet 😀 confirmed',
  'monthly fee',
  'invoice INV-2026-000123 settled',
  'коррекция баланса',
  'payment for order #88123',
];
const tags = ['priority', 'internal', 'external', 'reviewed', 'eu', 'apac', 'fx', 'otc', 'batch', 'manual'];
const currencies = ['USD', 'EUR', 'CHF', 'JPY', 'CC', 'GBP'];

class UpdateGenerator {
  /** The generator's random numbers (mulberry32). */
  private readonly rand: () => number;
  offset = 1000;
  private time = Date.UTC(2026, 5, 30, 10, 15, 30);
  private readonly parties: string[];
  private readonly packages: string[];
  private readonly synchronizers: string[];
  private readonly participants: string[];
  private readonly live: { contractId: string; templateId: string; packageName: string }[] = [];

  constructor(seed: number) {
    this.rand = mulberry32(seed >>> 0 || 1);
    this.parties = [];
    for (let i = 0; i < 40; i++) this.parties.push(`${firstNames[i % firstNames.length]}${i >= firstNames.length ? `-${i}` : ''}::1220${this.hex(64)}`);
    this.packages = [];
    for (let i = 0; i < modules.length; i++) this.packages.push(this.hex(64));
    this.synchronizers = [`global-domain::1220${this.hex(64)}`, `private-sync::1220${this.hex(64)}`];
    this.participants = [`PAR::participant1::1220${this.hex(64)}`, `PAR::participant2::1220${this.hex(64)}`];
  }



  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)] as T;
  }

  private hex(n: number): string {
    let s = '';
    while (s.length < n) s += ((this.rand() * 0x100000000) >>> 0).toString(16).padStart(8, '0');
    return s.slice(0, n);
  }

  private party(): string {
    return this.pick(this.parties);
  }

  private parties_(lo: number, hi: number): string[] {
    const n = this.int(lo, hi);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.party());
    return out;
  }

  private timestamp(deltaMs = 0): string {
    const iso = new Date(this.time + deltaMs).toISOString();
    return `${iso.slice(0, 23)}${String(this.int(0, 999)).padStart(3, '0')}Z`;
  }

  private numeric(): string {
    return `${this.int(0, 999999)}.${String(this.int(0, 9999999999)).padStart(10, '0')}`;
  }

  private template(): { templateId: string; packageName: string } {
    const m = this.int(0, modules.length - 1);
    const [moduleName, entities] = modules[m] as (typeof modules)[number];
    return { templateId: `${this.packages[m]}:${moduleName}:${this.pick(entities)}`, packageName: packageNames[m] as string };
  }

  private contractId(): string {
    return `00${this.hex(64)}ca111220${this.hex(64)}`;
  }

  private createArgument(owner: string): Json {
    const holders = this.parties_(0, 3);
    return {
      owner,
      issuer: this.party(),
      amount: {
        initialAmount: this.numeric(),
        createdAt: { number: String(this.int(1, 90000)) },
        ratePerRound: { rate: `0.${String(this.int(0, 99999999)).padStart(10, '0')}` },
      },
      instrument: {
        depository: this.party(),
        issuer: this.party(),
        id: { unpack: this.pick(currencies) },
        version: String(this.int(0, 5)),
      },
      lock: this.rand() < 0.4
        ? { holders, expiresAt: { microsSinceUnixEpoch: String(this.time * 1000 + this.int(0, 1e9)) }, optContext: this.rand() < 0.5 ? this.pick(texts) : null }
        : null,
      observers: { map: this.parties_(0, 3).map((p) => [p, {}] as Json) },
      description: this.pick(texts),
      tags: Array.from({ length: this.int(0, 4) }, () => this.pick(tags)),
      meta: { values: { reference: `ref-${this.hex(12)}`, source: this.pick(['api', 'ui', 'batch']), note: this.rand() < 0.3 ? this.pick(texts) : '' } },
      settlement: { tag: this.pick(['Immediate', 'Deferred']), value: { deadline: this.timestamp(86_400_000), windowDays: String(this.int(0, 30)) } },
    };
  }

  private createdEvent(nodeId: number): Json {
    const t = this.template();
    const owner = this.party();
    const signatories = [owner, ...this.parties_(0, 1)];
    const observers = this.parties_(0, 3);
    const contractId = this.contractId();
    if (this.live.length < 2000) this.live.push({ contractId, ...t });
    else this.live[this.int(0, this.live.length - 1)] = { contractId, ...t };
    return {
      CreatedEvent: {
        offset: this.offset,
        nodeId,
        contractId,
        templateId: t.templateId,
        contractKey: null,
        contractKeyHash: '',
        createArgument: this.createArgument(owner),
        createdEventBlob: '',
        interfaceViews: this.rand() < 0.2
          ? [{
              interfaceId: `${this.packages[2]}:Daml.Finance.Interface.Holding.Base:Base`,
              viewStatus: { code: 0, message: '', details: [] },
              viewValue: { account: { custodian: this.party(), owner, id: { unpack: `acc-${this.hex(8)}` } }, amount: this.numeric() },
              implementationPackageId: this.packages[2] as string,
            }]
          : [],
        witnessParties: [...signatories, ...observers.slice(0, 1)],
        signatories,
        observers,
        createdAt: this.timestamp(),
        packageName: t.packageName,
        representativePackageId: t.templateId.slice(0, 64),
        acsDelta: true,
      },
    };
  }

  private existing(): { contractId: string; templateId: string; packageName: string } {
    return this.live.length > 0 && this.rand() < 0.9 ? this.pick(this.live) : { contractId: this.contractId(), ...this.template() };
  }

  private archivedEvent(nodeId: number): Json {
    const c = this.existing();
    return {
      ArchivedEvent: {
        offset: this.offset,
        nodeId,
        contractId: c.contractId,
        templateId: c.templateId,
        witnessParties: this.parties_(1, 3),
        packageName: c.packageName,
        implementedInterfaces: this.rand() < 0.2 ? [`${this.packages[2]}:Daml.Finance.Interface.Holding.Base:Base`] : [],
      },
    };
  }

  private exercisedEvent(nodeId: number, last: number): Json {
    const c = this.existing();
    const actor = this.party();
    return {
      ExercisedEvent: {
        offset: this.offset,
        nodeId,
        contractId: c.contractId,
        templateId: c.templateId,
        interfaceId: null,
        choice: this.pick(choices),
        choiceArgument: {
          receiver: this.party(),
          amount: this.numeric(),
          context: { round: String(this.int(1, 90000)), memo: this.rand() < 0.5 ? this.pick(texts) : null },
          inputs: Array.from({ length: this.int(1, 3) }, () => ({ tag: 'InputAmulet', value: this.contractId() })),
        },
        actingParties: [actor],
        consuming: this.rand() < 0.6,
        witnessParties: [actor, ...this.parties_(0, 2)],
        lastDescendantNodeId: last,
        exerciseResult: { created: [this.contractId()], change: this.numeric(), meta: { summary: this.pick(texts) } },
        packageName: c.packageName,
        implementedInterfaces: [],
        acsDelta: this.rand() < 0.5,
      },
    };
  }

  private transaction(): Json {
    // 1–6 events, skewed towards small transactions (mean ≈ 2.6)
    const n = 1 + Math.floor(Math.pow(this.rand(), 1.9) * 6);
    const events: Json[] = [];
    for (let i = 0; i < n; i++) {
      const r = this.rand();
      if (r < 0.5) events.push(this.createdEvent(i));
      else if (r < 0.75) events.push(this.archivedEvent(i));
      else events.push(this.exercisedEvent(i, Math.min(n - 1, i + this.int(0, 2))));
    }
    return {
      update: {
        Transaction: {
          value: {
            updateId: `1220${this.hex(64)}`,
            commandId: this.rand() < 0.3 ? `cmd-${this.hex(16)}` : '',
            workflowId: this.rand() < 0.2 ? `wf-${this.hex(8)}` : '',
            effectiveAt: this.timestamp(-5),
            events,
            offset: this.offset,
            synchronizerId: this.synchronizers[0] as string,
            traceContext: { traceparent: `00-${this.hex(32)}-${this.hex(16)}-01`, tracestate: null },
            recordTime: this.timestamp(),
            externalTransactionHash: null,
            paidTrafficCost: this.rand() < 0.5 ? this.int(1000, 90000) : null,
            transactionHash: null,
          },
        },
      },
    };
  }

  private reassignment(): Json {
    const [source, target] = this.rand() < 0.5 ? this.synchronizers : [...this.synchronizers].reverse();
    const assign = this.rand() < 0.5;
    const reassignmentId = `1220${this.hex(64)}`;
    const event: Json = assign
      ? { JsAssignmentEvent: { source: source as string, target: target as string, reassignmentId, submitter: this.party(), reassignmentCounter: this.int(1, 9), createdEvent: (this.createdEvent(0) as { CreatedEvent: Json }).CreatedEvent } }
      : (() => {
          const c = this.existing();
          return {
            JsUnassignedEvent: {
              value: {
                reassignmentId, contractId: c.contractId, templateId: c.templateId, source: source as string, target: target as string,
                submitter: this.party(), reassignmentCounter: this.int(1, 9), assignmentExclusivity: this.rand() < 0.5 ? this.timestamp(60_000) : null,
                witnessParties: this.parties_(1, 3), packageName: c.packageName, offset: this.offset, nodeId: 0,
              },
            },
          };
        })();
    return {
      update: {
        Reassignment: {
          value: {
            updateId: `1220${this.hex(64)}`, commandId: '', workflowId: '', offset: this.offset, events: [event],
            traceContext: { traceparent: `00-${this.hex(32)}-${this.hex(16)}-01`, tracestate: null },
            recordTime: this.timestamp(), synchronizerId: (assign ? target : source) as string, paidTrafficCost: null,
          },
        },
      },
    };
  }

  private topology(): Json {
    return {
      update: {
        TopologyTransaction: {
          value: {
            updateId: `1220${this.hex(64)}`, offset: this.offset, synchronizerId: this.synchronizers[0] as string, recordTime: this.timestamp(),
            events: [{ event: { ParticipantAuthorizationAdded: { value: { partyId: this.party(), participantId: this.pick(this.participants), participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' } } } }],
            traceContext: null,
          },
        },
      },
    };
  }

  private checkpoint(): Json {
    return {
      update: {
        OffsetCheckpoint: {
          value: { offset: this.offset, synchronizerTimes: this.synchronizers.map((s) => ({ synchronizerId: s, recordTime: this.timestamp() })) },
        },
      },
    };
  }

  nextElement(): string {
    this.offset += this.int(1, 5);
    this.time += this.int(1, 400);
    const r = this.rand();
    const element = r < 0.02 ? this.checkpoint() : r < 0.05 ? this.reassignment() : r < 0.055 ? this.topology() : this.transaction();
    return JSON.stringify(element);
  }
}
