import { wildcardClaims } from '../auth/claims.js';
import type { DecodedCommand, DecodedJsCommands } from '../decode/decode-js-commands.js';
import type { TemplateInfo } from '../ledger/template-catalog.js';
import type { ContractRecord } from '../ledger/update-record.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { createRandom, hex64 } from '../state/ids.js';
import { acceptCommandsNow, type AcceptedCommands } from '../submit/accept-commands.js';
import { commitCommands } from '../submit/commit-commands.js';

/** The user the workload submits as. */
const workloadUser = 'ledger-rx-workload';
const amounts = ['50.0000000000', '75.2500000000', '1200.0000000000'];

/** What a submission of the workload is made of: the template and the parties, looked up once per batch. */
export interface WorkloadCommandBatch {
  readonly iou: TemplateInfo;
  readonly all: readonly string[];
  readonly locals: readonly string[];
}

/**
 * The part of the live workload that goes through the command service, as an application on the
 * participant would (docs/sandbox.md#the-workload): each submission is accepted and committed by the
 * same code as `POST /v2/commands/async/submit`, so it leaves a completion, and some fail as a real
 * workload's do. Of its submissions: 55% create an `Iou` (accepted), 25% transfer an active `Iou`
 * (accepted), 10% submit the last accepted create again under the same command id (rejected with
 * `DUPLICATE_COMMAND`), 10% transfer one `Iou` twice at once (the first accepted, the second rejected with
 * `LOCAL_VERDICT_INACTIVE_CONTRACTS`: its contract was archived by the first). Without an `Iou` to
 * transfer, a create is submitted instead.
 *
 * Deterministic from `randomSeed`: command ids `workload-<n>`, submission ids derived from the seed and
 * `n`, user `ledger-rx-workload`; it never takes a submission fault a test injected.
 */
export class WorkloadCommands {
  private readonly state: ParticipantState;
  private readonly random: () => number;
  private readonly randomSeed: number;
  private count = 0;
  private lastCreate: DecodedJsCommands | undefined;

  constructor(state: ParticipantState, randomSeed: number) {
    this.state = state;
    this.randomSeed = randomSeed;
    this.random = createRandom(randomSeed ^ 0x5f3759df);
  }

  /** Whether the next step of the live workload is a submission (one step in four). */
  due(): boolean {
    return this.random() < 0.25;
  }

  /** Submits the next command (two for a contention); `pickIou` takes an active `Iou` out of the workload's pool. */
  submitNext(batch: WorkloadCommandBatch, pickIou: () => ContractRecord | undefined): void {
    if (batch.locals.length === 0) return;
    const r = this.random();
    if (r < 0.1 && this.lastCreate !== undefined) {
      this.submit({ ...this.lastCreate, submissionId: this.submissionId(++this.count) });
      return;
    }
    const target = r < 0.45 ? pickIou() : undefined;
    if (target !== undefined && r < 0.2) {
      const first = this.accept(this.transfer(batch, target));
      const second = this.accept(this.transfer(batch, target));
      if (first) commitCommands(this.state, first, { injectedFaults: false });
      if (second) commitCommands(this.state, second, { injectedFaults: false });
      return;
    }
    if (target !== undefined) {
      this.submit(this.transfer(batch, target));
      return;
    }
    const request = this.create(batch);
    if (this.submit(request)) this.lastCreate = request;
  }

  private submissionId(n: number): string {
    const h = hex64(`workload-submission-${this.randomSeed}-${n}`);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  }

  private request(actAs: string, command: DecodedCommand): DecodedJsCommands {
    const n = ++this.count;
    return {
      commands: [command],
      commandId: `workload-${n}`,
      actAs: [actAs],
      userId: workloadUser,
      readAs: undefined,
      workflowId: undefined,
      deduplicationPeriod: undefined,
      minLedgerTimeAbs: undefined,
      minLedgerTimeRel: undefined,
      submissionId: this.submissionId(n),
      disclosedContracts: undefined,
      synchronizerId: undefined,
      packageIdSelectionPreference: undefined,
      prefetchContractKeys: undefined,
      tapsMaxPasses: undefined,
    };
  }

  private create(batch: WorkloadCommandBatch): DecodedJsCommands {
    const issuer = batch.locals[Math.floor(this.random() * batch.locals.length)] as string;
    const owner = batch.all[Math.floor(this.random() * batch.all.length)] as string;
    const amount = amounts[Math.floor(this.random() * amounts.length)] as string;
    return this.request(issuer, {
      kind: 'CreateCommand',
      value: { templateId: batch.iou.templateId, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } },
    });
  }

  private transfer(batch: WorkloadCommandBatch, target: ContractRecord): DecodedJsCommands {
    const newOwner = batch.all[Math.floor(this.random() * batch.all.length)] as string;
    const contractId = this.state.ledger.ids.contractId(target.createdOffset, target.nodeId);
    return this.request(target.signatories[0] as string, {
      kind: 'ExerciseCommand',
      value: { templateId: target.template.templateId, contractId, choice: 'Transfer', choiceArgument: { newOwner } },
    });
  }

  /** Accepts `request` (`undefined` when the participant refused it: an error answer, no completion). */
  private accept(request: DecodedJsCommands): AcceptedCommands | undefined {
    try {
      return acceptCommandsNow(this.state, request, wildcardClaims);
    } catch {
      return undefined;
    }
  }

  /** Accepts and commits `request`; true when it was committed. */
  private submit(request: DecodedJsCommands): boolean {
    const accepted = this.accept(request);
    return accepted !== undefined && commitCommands(this.state, accepted, { injectedFaults: false }).kind === 'committed';
  }
}
