import type { DecodedCommand } from '../decode/decode-js-commands.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { contractKeyOf } from '../ledger/contract-key-of.js';
import type { InterfaceInfo, TemplateInfo } from '../ledger/template-catalog.js';
import type { ParticipantState } from '../participant/participant-state.js';
import type { LfType } from '../state/lf-type.js';
import type { ChoiceDef } from '../state/package-store.js';
import { exceedsNestingDepth } from './exceeds-nesting-depth.js';
import { ValueTranscoder, type DeferredValueProblem } from './transcode-value.js';

/** The maximum nesting of a Daml value in a command (the JSON layer's depth limit). */
export const maxDamlValueDepth = 100;

/** What a command's `templateId` names: a template, or (for `ExerciseCommand` only) an interface. */
export type CommandTarget = { readonly kind: 'template'; readonly template: TemplateInfo } | { readonly kind: 'interface'; readonly iface: InterfaceInfo };

/** A choice found on the target: whether it consumes, and the interface it belongs to (if an interface choice). */
export interface ResolvedChoice {
  readonly consuming: boolean;
  readonly iface: InterfaceInfo | undefined;
  /** The choice as its package declares it (a choice read from a DAR has its argument type). */
  readonly def: ChoiceDef;
}

/** A Daml value type-checked against its DAR type: as the participant stores it, and its JSON text. */
export interface TypedValue {
  readonly value: unknown;
  readonly json: string;
}

/** A command after the JSON layer's transcoding: its resolved target and choice. */
export interface TranscodedCommand {
  readonly command: DecodedCommand;
  readonly target: CommandTarget;
  /** `undefined` for a `CreateCommand`. */
  readonly choice: ResolvedChoice | undefined;
  /** For a template read from a DAR: the create argument as the participant stores it (docs/sandbox.md#typed-creates). */
  readonly createArguments?: TypedValue;
  /** For a choice read from a DAR: the choice argument as the participant stores it. */
  readonly choiceArgument?: TypedValue;
  /**
   * Problems in the arguments that the server reports after the JSON layer (the gRPC validator, the engine's
   * preprocessing): `acceptCommands` raises the first of each stage at its step.
   */
  readonly deferred: readonly DeferredValueProblem[];
}

const packageIdPattern = /^[0-9a-f]{64}$/;
const packageNamePattern = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A package id reference as the JSON layer accepts it in `packageIdSelectionPreference`. */
export function isPackageId(value: string): boolean {
  return packageIdPattern.test(value);
}

function resolveTarget(state: ParticipantState, templateId: string, synchronizerId: string, allowInterface: boolean): CommandTarget {
  const i = templateId.indexOf(':');
  const pkg = templateId.slice(0, i);
  const qualifiedName = templateId.slice(i + 1);
  let packageId: string;
  if (pkg.startsWith('#')) {
    const name = pkg.slice(1);
    if (!packageNamePattern.test(name)) throw requestErrors.invalidArgument(`Value does not match the package-id or package-name formats: ${pkg}`);
    const vetted = state.vetting.vettedPackageIds(synchronizerId);
    const newest = state.ledger.catalog.packagesNamed(name).find((p) => vetted.has(p.packageId));
    if (!newest) {
      throw SandboxError.grpc(
        ErrorDefs.JSON_API_PACKAGE_SELECTION_FAILED,
        `Package selection failed for package-name '${name}': no package of that name is vetted by this participant on synchronizer ${synchronizerId}`,
      );
    }
    packageId = newest.packageId;
  } else if (isPackageId(pkg)) {
    packageId = pkg;
  } else {
    throw requestErrors.invalidArgument(`Value does not match the package-id or package-name formats: ${pkg}`);
  }
  const template = state.ledger.catalog.template(packageId, qualifiedName);
  if (template) return { kind: 'template', template };
  const iface = allowInterface ? state.ledger.catalog.interface(packageId, qualifiedName) : undefined;
  if (iface) return { kind: 'interface', iface };
  const id = `${packageId}:${qualifiedName}`;
  throw SandboxError.grpc(ErrorDefs.TEMPLATES_OR_INTERFACES_NOT_FOUND, `Templates do not exist: [${id}].`, { resources: [['TEMPLATE_ID', id]] });
}

function resolveChoice(target: CommandTarget, templateId: string, choice: string): ResolvedChoice {
  if (target.kind === 'interface') {
    const c = target.iface.def.choices[choice];
    if (c) return { consuming: c.consuming, iface: target.iface, def: c };
  } else {
    const own = target.template.def.choices[choice];
    if (own) return { consuming: own.consuming, iface: undefined, def: own };
    for (const iface of target.template.interfaces) {
      const c = iface.def.choices[choice];
      if (c) return { consuming: c.consuming, iface, def: c };
    }
  }
  throw requestErrors.jsonInvalidArgument(`Invalid template:${templateId} or choice:${choice}`);
}

function checkValue(value: unknown): void {
  if (exceedsNestingDepth(value, maxDamlValueDepth)) {
    throw requestErrors.jsonInvalidArgument(`JSON nesting exceeds the maximum allowed depth of ${maxDamlValueDepth}`);
  }
}

function checkKeyFields(template: TemplateInfo, source: unknown): void {
  const { missing } = contractKeyOf(template, source);
  if (missing.length > 0) throw SandboxError.jsonLayer(ErrorDefs.COMMAND_PREPROCESSING_FAILED, `Missing non-optional fields: ${missing.join(', ')}`);
}

function checkRecord(template: TemplateInfo, argument: unknown): void {
  checkValue(argument);
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) {
    throw requestErrors.jsonInvalidArgument(`Expected a record of type ${template.qualifiedName}, got ${JSON.stringify(argument)}`);
  }
  checkKeyFields(template, argument);
}

function transcoderFor(state: ParticipantState): ValueTranscoder {
  return new ValueTranscoder({
    dataType: (packageId, qualifiedName) => state.packages.get(packageId)?.dataTypes?.get(qualifiedName),
    variantErrorIs500: state.ledger.api.apiVersion === '3.4',
  });
}

function typed(transcoder: ValueTranscoder, type: LfType, json: unknown): TypedValue {
  const value = transcoder.transcode(type, json);
  return { value, json: transcoder.render(type, value) };
}

/**
 * Step 2 of a submission for one command, done by the JSON layer (docs/server-behavior.md#submit-validation-order): resolves the
 * package reference (`#name` becomes the newest package of that name this participant vetted on
 * `synchronizerId`, else `JSON_API_PACKAGE_SELECTION_FAILED`; an unknown template is
 * `TEMPLATES_OR_INTERFACES_NOT_FOUND`), finds the choice (else `INVALID_ARGUMENT`) and checks the payloads
 * (records, the key fields of a template with a key, nesting ≤ {@link maxDamlValueDepth}). Errors have the
 * JSON-layer body shape except the two lookups, which the server raises as gRPC errors.
 *
 * A template or choice read from an uploaded DAR has its argument type-checked against the DAR and rendered as
 * the participant stores it (`ValueTranscoder`, docs/sandbox.md#typed-creates); a choice argument `null` counts
 * as `{}`, as on the server.
 */
export function transcodeCommand(state: ParticipantState, command: DecodedCommand, synchronizerId: string): TranscodedCommand {
  const v = command.value;
  const target = resolveTarget(state, v.templateId, synchronizerId, command.kind === 'ExerciseCommand');
  let choice: ResolvedChoice | undefined;
  if (command.kind !== 'CreateCommand') choice = resolveChoice(target, v.templateId, command.value.choice);
  const transcoder = transcoderFor(state);
  let createArguments: TypedValue | undefined;
  let choiceArgument: TypedValue | undefined;
  if (command.kind === 'CreateCommand' || command.kind === 'CreateAndExerciseCommand') {
    const template = (target as { template: TemplateInfo }).template;
    const payload = template.def.payload;
    if (payload) {
      checkValue(command.value.createArguments);
      createArguments = typed(transcoder, { kind: 'con', ...payload, args: [] }, command.value.createArguments);
    } else checkRecord(template, command.value.createArguments);
  }
  if (command.kind === 'ExerciseByKeyCommand') {
    const template = (target as { template: TemplateInfo }).template;
    checkValue(command.value.contractKey);
    if (!template.def.keyFields) throw requestErrors.jsonInvalidArgument(`Template ${template.templateId} has no contract key`);
    checkKeyFields(template, command.value.contractKey);
  }
  if (command.kind !== 'CreateCommand') {
    checkValue(command.value.choiceArgument);
    const argumentType = choice?.def.argument;
    if (argumentType) choiceArgument = typed(transcoder, argumentType, command.value.choiceArgument ?? {});
  }
  const deferred = [transcoder.problem.validation, transcoder.problem.preprocessing].filter((p) => p !== undefined);
  return {
    command,
    target,
    choice,
    deferred,
    ...(createArguments ? { createArguments } : {}),
    ...(choiceArgument ? { choiceArgument } : {}),
  };
}
