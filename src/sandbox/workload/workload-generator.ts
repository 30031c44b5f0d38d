import type { Ledger } from '../ledger/ledger.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { createRandom } from '../state/ids.js';
import { contractKeyOf } from '../ledger/contract-key-of.js';
import { observersOf } from '../submit/observers-of.js';
import type { TemplateInfo } from '../ledger/template-catalog.js';
import { unionParties } from '../ledger/union-parties.js';
import type { ContractRecord, ExerciseRecord, NodeRecord, SubmissionRecord } from '../ledger/update-record.js';
import { WorkloadCommands } from './workload-commands.js';

interface IouShape {
  readonly issuer: number;
  readonly owner: number;
  readonly amount: number;
  readonly argument: Record<string, unknown>;
  readonly argumentJson: string;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly stakeholders: readonly string[];
}

interface Batch {
  readonly iou: TemplateInfo;
  readonly asset: TemplateInfo;
  readonly all: readonly string[];
  readonly locals: readonly string[];
}

const amounts = ['10.0000000000', '25.5000000000', '100.0000000000', '250.0000000000', '999.9900000000'];

/**
 * Creates realistic transactions fast, for `seed` (back-dated, at start or on demand) and for the live
 * workload (`generate`, `startWorkload`). Everything is deterministic from `randomSeed`.
 *
 * The mix, over the local parties as issuers and all known parties as owners: 55% `Iou` creates, 25%
 * consuming `Transfer`s of an active `Iou` (archive + successor create, a two-node tree), 10% keyed
 * `Asset` creates, 5% non-consuming `Iou_Observe` exercises and 5% transient create-and-archive
 * transactions (visible only in ledger effects). It uses the newest vetted `ledger-rx-demo` package.
 *
 * To stay small and fast at 10^6 transactions, contracts of the same shape share their argument JSON and
 * party arrays, and `Iou` arguments carry a shared `memo` text sized so the create argument is about
 * `payloadBytes` long. Generated transactions derive their command id from the offset (`seed-<offset>`).
 *
 * The live workload (`generate`) also submits commands through the command service, one step in four
 * ({@link WorkloadCommands}: completions, some of them failures), so a completion stream has something to
 * show; the seeded history (`seed`) is appended directly and has no completions.
 */
export class WorkloadGenerator {
  private readonly state: ParticipantState;
  private readonly ledger: Ledger;
  private readonly random: () => number;
  private readonly memo: string;
  private readonly shapes = new Map<string, IouShape>();
  private readonly shapeOf = new WeakMap<object, IouShape>();
  private readonly submissions = new Map<string, SubmissionRecord>();
  private readonly activeIous: ContractRecord[] = [];
  private readonly choiceArgs = new Map<string, string>();
  private readonly commands: WorkloadCommands;
  private assetCounter = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(state: ParticipantState, payloadBytes: number | undefined) {
    this.state = state;
    this.ledger = state.ledger;
    this.random = createRandom(state.options.randomSeed ^ 0x27d4eb2f);
    this.commands = new WorkloadCommands(state, state.options.randomSeed);
    const base = 200;
    this.memo = payloadBytes === undefined ? '' : 'x'.repeat(Math.max(0, payloadBytes - base));
  }

  /** Appends `count` transactions with record times spread between the last update and now. */
  seed(count: number): void {
    const time = this.ledger.backdatedRecordTimes(count);
    const batch = this.batch();
    for (let i = 0; i < count; i++) this.appendOne(batch, time(i));
  }

  /** Runs `count` steps of the live workload now: a generated transaction, or a command submission. */
  generate(count: number): void {
    const batch = this.batch();
    for (let i = 0; i < count; i++) {
      if (this.commands.due()) this.commands.submitNext(batch, () => this.pickActiveIou());
      else this.appendOne(batch, this.ledger.nextRecordTime());
    }
  }

  /** Starts (or re-rates) a live workload of `rate` transactions per second. */
  start(rate: number): void {
    if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`workload rate must be a positive number, got ${rate}`);
    this.stop();
    let due = 0;
    let last = Date.now();
    const tickMs = Math.max(10, Math.min(100, Math.floor(1000 / rate)));
    this.timer = setInterval(() => {
      const now = Date.now();
      due += ((now - last) * rate) / 1000;
      last = now;
      const n = Math.floor(due);
      due -= n;
      if (n > 0) this.generate(n);
    }, tickMs);
    this.timer.unref();
  }

  /** Stops the live workload. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private intern(parties: readonly string[]): readonly string[] {
    return this.ledger.partyLists.intern(parties);
  }

  /** What a batch of transactions is generated from: templates and parties, looked up once. */
  private batch(): Batch {
    const state = this.state;
    const all = state.parties.all().map((p) => p.party);
    return { ...this.templates(), all, locals: all.filter((p) => state.parties.get(p)?.isLocal === true) };
  }

  private templates(): { iou: TemplateInfo; asset: TemplateInfo } {
    const state = this.state;
    const catalog = this.ledger.catalog;
    const vetted = state.vetting.vettedPackageIds(state.synchronizers[0]?.id ?? '');
    const candidates = catalog.packagesNamed('ledger-rx-demo');
    const pkg = candidates.find((p) => vetted.has(p.packageId)) ?? candidates[0];
    const iou = pkg && catalog.template(pkg.packageId, 'Iou:Iou');
    const asset = pkg && catalog.template(pkg.packageId, 'Asset:Asset');
    if (!iou || !asset) throw new Error('the ledger-rx-demo package is not in the package store');
    return { iou, asset };
  }

  private submission(actAs: string): SubmissionRecord {
    let s = this.submissions.get(actAs);
    if (!s) {
      s = {
        userId: 'ledger-rx-workload',
        actAs: this.intern([actAs]),
        commandId: '',
        derivedCommandId: true,
        workflowId: '',
        submissionId: '',
        traceparent: undefined,
        tracestate: undefined,
      };
      this.submissions.set(actAs, s);
    }
    return s;
  }

  private iouShape(locals: readonly string[], all: readonly string[], issuer: number, owner: number, amount: number): IouShape {
    const key = `${issuer}|${owner}|${amount}`;
    let shape = this.shapes.get(key);
    if (!shape) {
      const issuerParty = locals[issuer] as string;
      const argument: Record<string, unknown> = {
        issuer: issuerParty,
        owner: all[owner],
        currency: 'USD',
        amount: amounts[amount],
        observers: [],
      };
      if (this.memo !== '') argument['memo'] = this.memo;
      const signatories = this.intern([issuerParty]);
      const observers = this.intern(observersOf(argument, (p) => this.state.parties.has(p), signatories));
      shape = {
        issuer,
        owner,
        amount,
        argument,
        argumentJson: JSON.stringify(argument),
        signatories,
        observers,
        stakeholders: this.intern(unionParties(signatories, observers)),
      };
      this.shapes.set(key, shape);
      this.shapeOf.set(argument, shape);
    }
    return shape;
  }

  private contract(nodeId: number, offset: number, template: TemplateInfo, shape: Pick<IouShape, 'argument' | 'argumentJson' | 'signatories' | 'observers' | 'stakeholders'>, witnesses: readonly string[]): ContractRecord {
    return {
      kind: 'create',
      nodeId,
      createdOffset: offset,
      template,
      argument: shape.argument,
      argumentJson: shape.argumentJson,
      signatories: shape.signatories,
      observers: shape.observers,
      stakeholders: shape.stakeholders,
      witnesses,
      key: contractKeyOf(template, shape.argument).json,
      archivedOffset: 0,
      synchronizer: 0,
      reassignmentCounter: 0,
      unassignedIn: undefined,
    };
  }

  private pickActiveIou(): ContractRecord | undefined {
    while (this.activeIous.length > 0) {
      const i = Math.floor(this.random() * this.activeIous.length);
      const c = this.activeIous[i] as ContractRecord;
      const last = this.activeIous.pop() as ContractRecord;
      if (i < this.activeIous.length) this.activeIous[i] = last;
      if (c.archivedOffset === 0 && c.unassignedIn === undefined && c.synchronizer === 0) return c;
    }
    return undefined;
  }

  private choiceArgument(newOwner: string | undefined): string {
    const key = newOwner ?? '';
    let s = this.choiceArgs.get(key);
    if (s === undefined) {
      s = newOwner === undefined ? '{}' : JSON.stringify({ newOwner });
      this.choiceArgs.set(key, s);
    }
    return s;
  }

  private appendOne(batch: Batch, recordTimeMs: number): void {
    const ledger = this.ledger;
    const state = this.state;
    const { iou, asset, all, locals } = batch;
    if (locals.length === 0) return;
    const r = this.random();
    const offset = ledger.allocateOffset();
    let nodes: NodeRecord[];
    let actor = locals[0] as string;
    const newIou = (nodeId: number, parentWitnesses: readonly string[]) => {
      const issuer = Math.floor(this.random() * locals.length);
      const owner = Math.floor(this.random() * all.length);
      const shape = this.iouShape(locals, all, issuer, owner, Math.floor(this.random() * amounts.length));
      actor = locals[issuer] as string;
      const witnesses = parentWitnesses.length === 0 ? shape.stakeholders : this.intern(unionParties(shape.stakeholders, parentWitnesses));
      return this.contract(nodeId, offset, iou, shape, witnesses);
    };
    const target = r >= 0.55 && r < 0.8 ? this.pickActiveIou() : r >= 0.9 && r < 0.95 ? this.pickActiveIou() : undefined;
    if (target && r < 0.8) {
      // Transfer: archive the target and create its successor for a new owner.
      const shape = this.shapeOf.get(target.argument as object) as IouShape;
      const owner = Math.floor(this.random() * all.length);
      const successorShape = this.iouShape(locals, all, shape.issuer, owner, shape.amount);
      actor = target.signatories[0] as string;
      const actors = this.intern([actor]);
      const informees = this.intern(unionParties(target.stakeholders, actors));
      const successor = this.contract(1, offset, iou, successorShape, this.intern(unionParties(successorShape.stakeholders, informees)));
      const exercise: ExerciseRecord = {
        kind: 'exercise',
        nodeId: 0,
        target,
        interface: undefined,
        choice: 'Transfer',
        choiceArgumentJson: this.choiceArgument(all[owner]),
        actingParties: actors,
        consuming: true,
        lastDescendantNodeId: 1,
        witnesses: informees,
      };
      nodes = [exercise, successor];
      this.activeIous.push(successor);
    } else if (target) {
      // A non-consuming exercise: the contract stays active.
      actor = target.signatories[0] as string;
      const actors = this.intern([actor]);
      nodes = [
        {
        kind: 'exercise',
        nodeId: 0,
        target,
        interface: undefined,
        choice: 'Iou_Observe',
        choiceArgumentJson: '{}',
        actingParties: actors,
        consuming: false,
        lastDescendantNodeId: 0,
        witnesses: this.intern(unionParties(target.signatories, actors)),
        },
      ];
      this.activeIous.push(target);
    } else if (r >= 0.8 && r < 0.9) {
      const issuer = locals[Math.floor(this.random() * locals.length)] as string;
      const owner = all[Math.floor(this.random() * all.length)] as string;
      const argument = { issuer, owner, symbol: `SYM-${++this.assetCounter}`, quantity: '10' };
      const signatories = this.intern([issuer]);
      const observers = this.intern(observersOf(argument, (p) => state.parties.has(p), signatories));
      const stakeholders = this.intern(unionParties(signatories, observers));
      actor = issuer;
      nodes = [this.contract(0, offset, asset, { argument, argumentJson: JSON.stringify(argument), signatories, observers, stakeholders }, stakeholders)];
    } else if (r >= 0.95) {
      // A transient contract: created and archived in the same transaction.
      const created = newIou(0, []);
      const actors = this.intern([actor]);
      nodes = [
        created,
        {
        kind: 'exercise',
        nodeId: 1,
        target: created,
        interface: undefined,
        choice: 'Archive',
        choiceArgumentJson: '{}',
        actingParties: actors,
        consuming: true,
        lastDescendantNodeId: 1,
        witnesses: this.intern(unionParties(created.stakeholders, actors)),
        },
      ];
    } else {
      const created = newIou(0, []);
      nodes = [created];
      this.activeIous.push(created);
    }
    ledger.append({ kind: 'transaction', offset, recordTimeMs, synchronizer: 0, submission: this.submission(actor), nodes });
  }
}
