// Writes the wire model as named TypeScript types into the schema files of src/schemas (each type after its
// schema's file's marker line, so that the schema and its type are one exported name): one per OpenAPI component we
// model, read from the Canton JSON Ledger API spec of the 3.6 release line (the union of what the 3.4, 3.5 and
// 3.6 participants send: a field an older line lacks is optional there already), with the spec's
// descriptions as doc comments and a note where the 3.4 or 3.5 spec lacks a field or an alternative. The
// zod schemas are checked against these types where they are declared (`wireSchema`), so a schema and its
// type cannot drift; test/schemas/wire-types-current.test.ts checks that the checked-in files are what this
// script writes. See docs/wire-types.md.
//
//     node scripts/generate-wire-types.mjs            write the types into src/schemas/*.ts
//     node scripts/generate-wire-types.mjs --check    exit 1 when a checked-in file differs
//     ... --schemas DIR                               write (or check) the schema files in DIR instead
//
// The spec is read from ../shared/canton (or LEDGER_RX_SHARED), the reference folder beside the clone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const shared = process.env['LEDGER_RX_SHARED'] ?? resolve(root, '..', 'shared');

/**
 * The types to write, in this order: `name` is the exported type, `spec` the component of the 3.6 spec it is
 * read from (the spec numbers the payload of a wrapper alternative: `CanActAs1` is what `{"CanActAs": {"value":
 * ...}}` holds), `open` whether a variant keeps an alternative it does not know as an `UnknownVariant` (what we
 * read) or refuses it (what we send), `note` what we add to the spec's description (the server's behaviour
 * that the spec does not state, from docs/server-behavior.md and docs/wire-types.md).
 */
const manifest = [
  // primitives and common plumbing
  { section: 'Common messages' },
  { name: 'Field', spec: 'Field', note: 'One field of a protobuf unknown-field set.' },
  { name: 'UnknownFieldSet', spec: 'UnknownFieldSet', note: 'A protobuf unknown-field set: `{"fields": {}}` in what the server sends.' },
  { name: 'Duration', spec: 'Duration', note: 'A duration as an object `{seconds, nanos}` (not the proto3 `"1.5s"` string). The server adds `unknownFields`.' },
  { name: 'Empty', spec: 'Empty', also: ['Empty1', 'Empty2', 'Empty3', 'Empty4', 'Empty5', 'Empty6', 'Empty7', 'Empty8'], note: 'The proto "not set" alternative of a variant, or a unit payload: `{}`.' },
  { name: 'TraceContext', spec: 'TraceContext', note: 'The W3C trace headers of the submission that caused an update or completion.' },
  { name: 'SynchronizerTime', spec: 'SynchronizerTime', note: 'The latest record time seen on a synchronizer.' },
  { name: 'ObjectMeta', spec: 'ObjectMeta' },
  { name: 'FieldMask', spec: 'FieldMask', note: '`{"paths": [...]}`; the server fills in `unknownFields` when absent, so it is optional in a request.' },
  {
    name: 'ProtoAny', spec: 'ProtoAny',
    note: 'A packed protobuf message. The spec types `valueDecoded` as a string, but the server prints the decoded `ErrorInfo`, `RetryInfo`, `ResourceInfo` and `RequestInfo` as a JSON object (a string only for other types or when decoding fails), so it is any JSON here.',
  },
  { name: 'JsStatus', spec: 'JsStatus', note: 'A google.rpc.Status: a gRPC status code, a message and details.' },
  { name: 'JsCantonError', spec: 'JsCantonError', note: 'The JSON error body of the participant. The server always sends all ten keys, with `null` for absent values; the spec allows them missing.' },

  { section: 'Events' },
  { name: 'JsInterfaceView', spec: 'JsInterfaceView' },
  { name: 'CreatedEvent', spec: 'CreatedEvent' },
  { name: 'ArchivedEvent', spec: 'ArchivedEvent' },
  { name: 'ExercisedEvent', spec: 'ExercisedEvent' },
  { name: 'Event', spec: 'Event', open: true, note: 'One event of a transaction: `{"CreatedEvent": {...}}`, `{"ArchivedEvent": {...}}` or `{"ExercisedEvent": {...}}` (the fields sit directly under the alternative\'s name), or an `UnknownVariant` from a newer server.' },
  { name: 'UnassignedEvent', spec: 'UnassignedEvent' },
  { name: 'JsAssignmentEvent', spec: 'JsAssignmentEvent' },
  { name: 'JsReassignmentEvent', spec: 'JsReassignmentEvent', open: true, note: 'One event of a reassignment: an assignment carries its fields directly, an unassignment under `"value"`; or an `UnknownVariant` from a newer server.' },
  { name: 'ParticipantPermission', enumOf: ['ParticipantAuthorizationAdded1', 'participantPermission'], note: 'The permission of a participant for a party (topology events).' },
  { name: 'ParticipantAuthorizationAdded', spec: 'ParticipantAuthorizationAdded1' },
  { name: 'ParticipantAuthorizationChanged', spec: 'ParticipantAuthorizationChanged1' },
  { name: 'ParticipantAuthorizationOnboarding', spec: 'ParticipantAuthorizationOnboarding1' },
  { name: 'ParticipantAuthorizationRevoked', spec: 'ParticipantAuthorizationRevoked1' },
  { name: 'TopologyEventEvent', spec: 'TopologyEventEvent', open: true, note: 'The alternative of a topology event; each wraps its payload in `"value"`.' },
  { name: 'TopologyEvent', spec: 'TopologyEvent' },

  { section: 'Updates' },
  { name: 'JsTransaction', spec: 'JsTransaction', note: '`commandId` and `workflowId` are `""` (not absent) when not visible to the reader or not set.' },
  { name: 'JsReassignment', spec: 'JsReassignment' },
  { name: 'JsTopologyTransaction', spec: 'JsTopologyTransaction' },
  { name: 'OffsetCheckpoint', spec: 'OffsetCheckpoint1', note: 'The participant has indexed everything up to `offset`: a valid `beginExclusive` to resume from. Only open-ended streams carry checkpoints.' },
  {
    name: 'Update', spec: 'Update', open: true,
    note: 'The update of one stream element: narrow it with `\'Transaction\' in update` (then `update.Transaction.value` is a `JsTransaction`), `\'Reassignment\' in update`, `\'TopologyTransaction\' in update` or `\'OffsetCheckpoint\' in update`; `isUnknownVariant(update)` for a kind this version does not know.',
  },
  { name: 'JsGetUpdatesResponse', spec: 'JsGetUpdatesResponse', note: 'One element of an updates stream, whatever the transport (the list of `POST /v2/updates`, a page, a WebSocket frame): every read of updates emits these.' },
  { name: 'JsGetUpdateResponse', spec: 'JsGetUpdateResponse', alias: 'JsGetUpdatesResponse', note: 'One update of a `get-updates-page` answer: the same shape as {@link JsGetUpdatesResponse}.' },
  { name: 'JsGetUpdatesPageResponse', spec: 'JsGetUpdatesPageResponse', note: 'One page of updates and its bounds `(lowestPageOffsetExclusive, highestPageOffsetInclusive]`; `nextPageToken` unless it is the last page (an ascending read without an end always has one).' },

  { section: 'Filters and formats' },
  { name: 'WildcardFilter', spec: 'WildcardFilter1', note: 'Matches every template.' },
  { name: 'TemplateFilter', spec: 'TemplateFilter1', note: '`templateId` as `#package-name:Module:Entity`.' },
  { name: 'InterfaceFilter', spec: 'InterfaceFilter1', note: '`interfaceId` as `#package-name:Module:Interface`.' },
  { name: 'IdentifierFilter', spec: 'IdentifierFilter', open: false },
  { name: 'CumulativeFilter', spec: 'CumulativeFilter' },
  { name: 'Filters', spec: 'Filters', note: 'An empty or absent `cumulative` list means every template (a wildcard).' },
  { name: 'EventFormat', spec: 'EventFormat' },
  { name: 'TransactionFilter', spec: 'TransactionFilter', note: 'The deprecated filter of `GetUpdatesRequest` and `GetActiveContractsRequest`; the client converts it to an `EventFormat`.' },
  { name: 'TransactionShape', enumOf: ['TransactionFormat', 'transactionShape'], note: 'Which events of a transaction to include: the ACS delta (creates and consuming archives) or every ledger effect.' },
  { name: 'TransactionFormat', spec: 'TransactionFormat' },
  { name: 'ParticipantAuthorizationTopologyFormat', spec: 'ParticipantAuthorizationTopologyFormat', note: 'An empty party list means every party.' },
  { name: 'TopologyFormat', spec: 'TopologyFormat' },
  { name: 'UpdateFormat', spec: 'UpdateFormat', note: 'Which transactions, reassignments and topology events to include; build one with `updateFormat()`.' },

  { section: 'Requests for updates' },
  { name: 'GetUpdatesRequest', spec: 'GetUpdatesRequest', note: 'The body of `POST /v2/updates` (and the request frame of its WebSocket). Use `updateFormat`; the deprecated `filter`/`verbose` pair is accepted and converted by the client.' },
  { name: 'GetUpdatesPageRequest', spec: 'GetUpdatesPageRequest', note: 'The body of `POST /v2/updates/get-updates-page` (3.5 on). `pageToken` is the `nextPageToken` of the previous page, valid only with the same offsets, page size, format and order, on the same participant.' },
  { name: 'GetUpdateByHashRequest', spec: 'GetUpdateByHashRequest', note: 'The body of `POST /v2/updates/update-by-hash` (3.6 on).' },

  { section: 'Active contracts' },
  { name: 'GetActiveContractsRequest', spec: 'GetActiveContractsRequest', note: 'The body (or WebSocket request frame) of `/v2/state/active-contracts`. `client.activeContracts` fills `activeAtOffset` with the ledger end when left out. Use `eventFormat`; the deprecated `filter`/`verbose` pair is converted by the client.' },
  { name: 'GetActiveContractsPageRequest', spec: 'GetActiveContractsPageRequest', note: 'The body of `GET /v2/state/active-contracts-page` (3.5 on; a GET with a JSON body, as the server declares it).' },
  { name: 'JsActiveContract', spec: 'JsActiveContract' },
  { name: 'JsAssignedEvent', spec: 'JsAssignedEvent' },
  { name: 'JsIncompleteAssigned', spec: 'JsIncompleteAssigned' },
  { name: 'JsIncompleteUnassigned', spec: 'JsIncompleteUnassigned' },
  { name: 'JsEmpty', spec: 'JsEmpty', note: 'An entry with nothing in it.' },
  { name: 'JsContractEntry', spec: 'JsContractEntry', open: true, note: 'One entry of a snapshot: each alternative carries its fields directly; an `UnknownVariant` from a newer server.' },
  { name: 'JsGetActiveContractsResponse', spec: 'JsGetActiveContractsResponse', note: 'One entry of an active-contracts snapshot, whatever the transport.' },
  { name: 'JsGetActiveContractsPageResponse', spec: 'JsGetActiveContractsPageResponse' },

  { section: 'Commands' },
  { name: 'CreateCommand', spec: 'CreateCommand' },
  { name: 'ExerciseCommand', spec: 'ExerciseCommand' },
  { name: 'ExerciseByKeyCommand', spec: 'ExerciseByKeyCommand' },
  { name: 'CreateAndExerciseCommand', spec: 'CreateAndExerciseCommand' },
  { name: 'Command', spec: 'Command', open: false, note: 'One command of a submission; the fields sit directly under the alternative\'s name.' },
  { name: 'DeduplicationPeriod', spec: 'DeduplicationPeriod', open: false, note: 'The deduplication period of a submission: a duration, an offset, or `Empty` (the participant\'s maximum).' },
  { name: 'DisclosedContract', spec: 'DisclosedContract' },
  { name: 'PrefetchContractKey', spec: 'PrefetchContractKey' },
  { name: 'JsCommands', spec: 'JsCommands', note: 'The body of `POST /v2/commands/async/submit` (and of the submit-and-wait calls). The change id is (`userId`, the `actAs` set, `commandId`).' },
  { name: 'SubmitResponse', spec: 'SubmitResponse', note: '`{}`: the submission was accepted for processing, nothing more.' },
  { name: 'AssignCommand', spec: 'AssignCommand1' },
  { name: 'UnassignCommand', spec: 'UnassignCommand1' },
  { name: 'ReassignmentCommandVariant', spec: 'Command1', open: false, note: 'The command of a `ReassignmentCommand`: `AssignCommand`, `UnassignCommand` or `Empty` (`Command1` in the spec).' },
  { name: 'ReassignmentCommand', spec: 'ReassignmentCommand' },
  { name: 'ReassignmentCommands', spec: 'ReassignmentCommands' },
  { name: 'SubmitAndWaitForReassignmentRequest', spec: 'SubmitAndWaitForReassignmentRequest', note: 'Without `eventFormat` the response has no events.' },
  { name: 'JsSubmitAndWaitForReassignmentResponse', spec: 'JsSubmitAndWaitForReassignmentResponse' },

  { section: 'Completions' },
  { name: 'CompletionDeduplicationPeriod', spec: 'DeduplicationPeriod1', open: true, note: 'The deduplication period the participant actually used for a submission (`DeduplicationPeriod1` in the spec), which may differ in form from the one submitted; an `UnknownVariant` for a form this version does not know.' },
  { name: 'Completion', spec: 'Completion1', note: 'Without `status`, or with `status.code` 0, the command succeeded and `updateId` names its transaction or reassignment at `offset`; any other code is a failure. `actAs` holds the submission\'s `actAs` parties the reader may see, in any order.' },
  { name: 'CompletionResponse', spec: 'CompletionResponse', open: true, note: 'A completion, a checkpoint, `Empty`, or an `UnknownVariant` from a newer server.' },
  { name: 'CompletionStreamResponse', spec: 'CompletionStreamResponse', note: 'One element of a completion stream, whatever the transport.' },
  { name: 'CompletionStreamRequest', spec: 'CompletionStreamRequest', note: 'The body of the deprecated `/v2/commands/completions`.' },
  { name: 'GetCompletionsRequest', spec: 'GetCompletionsRequest', note: 'The body of `/v2/commands/command-completions` (3.5 on).' },
  { name: 'GetCompletionByHashRequest', spec: 'GetCompletionByHashRequest', note: 'The body of `POST /v2/commands/completion-by-hash` (3.6 on).' },
  { name: 'GetCompletionByHashResponse', spec: 'GetCompletionByHashResponse', note: 'The accepted completion of a transaction hash (at most one) and its last rejected ones, newest first, as far as the caller may read them.' },

  { section: 'State and version' },
  { name: 'GetLedgerEndResponse', spec: 'GetLedgerEndResponse', note: '`offset` is 0 (or absent) on an empty ledger.' },
  { name: 'GetLatestPrunedOffsetsResponse', spec: 'GetLatestPrunedOffsetsResponse' },
  { name: 'ExperimentalStaticTime', spec: 'ExperimentalStaticTime' },
  { name: 'ExperimentalCommandInspectionService', spec: 'ExperimentalCommandInspectionService' },
  { name: 'ExperimentalFeatures', spec: 'ExperimentalFeatures' },
  { name: 'UserManagementFeature', spec: 'UserManagementFeature' },
  { name: 'PartyManagementFeature', spec: 'PartyManagementFeature' },
  { name: 'OffsetCheckpointFeature', spec: 'OffsetCheckpointFeature' },
  { name: 'PackageFeature', spec: 'PackageFeature' },
  { name: 'FeaturesDescriptor', spec: 'FeaturesDescriptor' },
  { name: 'GetLedgerApiVersionResponse', spec: 'GetLedgerApiVersionResponse', note: 'The answer of `GET /v2/version`, which needs no token.' },

  { section: 'Parties and packages' },
  { name: 'PartyDetails', spec: 'PartyDetails' },
  { name: 'AllocatePartyRequest', spec: 'AllocatePartyRequest' },
  { name: 'AllocatePartyResponse', spec: 'AllocatePartyResponse' },
  { name: 'ListKnownPartiesResponse', spec: 'ListKnownPartiesResponse' },
  { name: 'ListPackagesResponse', spec: 'ListPackagesResponse' },

  { section: 'Users and rights' },
  { name: 'CanActAs', spec: 'CanActAs1' },
  { name: 'CanReadAs', spec: 'CanReadAs1' },
  { name: 'CanExecuteAs', spec: 'CanExecuteAs1' },
  { name: 'CanActAsAnyParty', spec: 'CanActAsAnyParty1' },
  { name: 'CanReadAsAnyParty', spec: 'CanReadAsAnyParty1' },
  { name: 'CanExecuteAsAnyParty', spec: 'CanExecuteAsAnyParty1' },
  { name: 'ParticipantAdmin', spec: 'ParticipantAdmin1' },
  { name: 'IdentityProviderAdmin', spec: 'IdentityProviderAdmin1' },
  { name: 'Kind', spec: 'Kind', open: true, note: 'The kind of a right; each alternative wraps its payload in `"value"`; a kind from a newer server is an `UnknownVariant`.' },
  { name: 'Right', spec: 'Right' },
  { name: 'RightInput', spec: 'Right', input: true, module: 'users', note: 'A right as a request field: a `Right` whose kind is one this version knows.' },
  { name: 'User', spec: 'User', note: '`primaryParty` and `identityProviderId` are `""` when unset.' },
  { name: 'UserInput', alias: 'User', module: 'users', note: 'A user as a request field: the same shape as {@link User}.' },
  { name: 'UpdateUserRequest', spec: 'UpdateUserRequest', note: '`updateMask.paths` use snake_case field names (see `fieldMask`).' },
  { name: 'UpdateUserResponse', spec: 'UpdateUserResponse' },
  { name: 'RevokeUserRightsRequest', spec: 'RevokeUserRightsRequest', note: '`userId` must equal the user id of the path.' },
  { name: 'RevokeUserRightsResponse', spec: 'RevokeUserRightsResponse' },
  { name: 'GrantUserRightsRequest', spec: 'GrantUserRightsRequest' },
  { name: 'GrantUserRightsResponse', spec: 'GrantUserRightsResponse' },
  { name: 'ListUserRightsResponse', spec: 'ListUserRightsResponse' },
  { name: 'CreateUserRequest', spec: 'CreateUserRequest' },
  { name: 'CreateUserResponse', spec: 'CreateUserResponse' },
  { name: 'GetUserResponse', spec: 'GetUserResponse' },

  { section: 'Package vetting' },
  { name: 'PackageMetadataFilter', spec: 'PackageMetadataFilter' },
  { name: 'TopologyStateFilter', spec: 'TopologyStateFilter' },
  { name: 'ListVettedPackagesRequest', spec: 'ListVettedPackagesRequest' },
  { name: 'VettedPackage', spec: 'VettedPackage', note: '`packageName` and `packageVersion` are `""` when the package is not uploaded to this participant.' },
  { name: 'VettedPackages', spec: 'VettedPackages' },
  { name: 'ListVettedPackagesResponse', spec: 'ListVettedPackagesResponse', note: '`nextPageToken` is non-empty whenever the page is; the paging ends with an empty page.' },
  { name: 'VettedPackagesRef', spec: 'VettedPackagesRef', note: 'The server accepts only `{packageId}`, `{packageName}`, `{packageName, packageVersion}` or all three.' },
  { name: 'Vet', spec: 'Vet1' },
  { name: 'Unvet', spec: 'Unvet1' },
  { name: 'Operation', spec: 'Operation', open: false, note: '`Vet`, `Unvet`, or `Empty` (which the server rejects).' },
  { name: 'VettedPackagesChange', spec: 'VettedPackagesChange' },
  { name: 'Prior', spec: 'Prior', note: 'The expected current serial: `{"Prior": {"value": n}}`.' },
  { name: 'NoPrior', spec: 'NoPrior', note: 'Expect no vetting state yet.' },
  { name: 'Serial', spec: 'Serial', open: false, note: '`Prior`, `NoPrior`, or `Empty` (no check).' },
  { name: 'PriorTopologySerial', spec: 'PriorTopologySerial' },
  { name: 'UpdateVettedPackagesForceFlag', enumOf: ['UpdateVettedPackagesRequest', 'updateVettedPackagesForceFlags'] },
  { name: 'UpdateVettedPackagesRequest', spec: 'UpdateVettedPackagesRequest', note: 'An empty `synchronizerId` lets the server find it.' },
  { name: 'UpdateVettedPackagesResponse', spec: 'UpdateVettedPackagesResponse', note: '`pastVettedPackages` is `null` when there was no vetting state before.' },
];

/**
 * Where the schemas (and so the types) deliberately differ from the spec's required-ness; the same table as
 * test/schemas/openapi-drift.test.ts, which checks the schemas against the spec (docs/server-behavior.md).
 */
const requiredExceptions = {
  'JsGetUpdatesResponse.update': 'required',
  'JsGetActiveContractsResponse.contractEntry': 'required',
  'CompletionStreamResponse.completionResponse': 'required',
  'FieldMask.unknownFields': 'optional',
};
/** Where the type is another than the spec's (see the note of `ProtoAny`). */
const typeExceptions = { 'ProtoAny.valueDecoded': 'JsonValue' };

function loadSpec(file) {
  const path = join(shared, 'canton', file);
  if (!existsSync(path)) {
    process.stderr.write(`generate-wire-types: ${path} is missing (put the reference folder beside the clone as ../shared, or set LEDGER_RX_SHARED)\n`);
    process.exit(2);
  }
  return parse(readFileSync(path, 'utf8')).components.schemas;
}

const spec = loadSpec('openapi-3.6.yaml');
const older = { '3.4': loadSpec('openapi-3.4.yaml'), '3.5': loadSpec('openapi-3.5.yaml') };

/** The spec component → the type that models it (read side: an open variant's type). */
const typeOf = new Map();
for (const entry of manifest) {
  if (!entry.spec || entry.input) continue;
  for (const name of [entry.spec, ...(entry.also ?? [])]) if (!typeOf.has(name)) typeOf.set(name, entry.name);
}
const entryByName = new Map(manifest.filter((e) => e.name).map((e) => [e.name, e]));
/** Inline enums that have a name: the sorted values → the name. */
const enumNames = new Map();
for (const entry of manifest) {
  if (!entry.enumOf) continue;
  const values = enumValues(entry);
  enumNames.set(values.slice().sort().join('|'), entry.name);
}

function enumValues(entry) {
  const [component, property] = entry.enumOf;
  const node = spec[component]?.properties?.[property];
  const values = node?.enum ?? node?.items?.enum;
  if (!values) throw new Error(`${entry.name}: ${component}.${property} is not an enum in the 3.6 spec`);
  return values;
}

const refName = (ref) => ref.replace('#/components/schemas/', '');

function component(name) {
  const node = spec[name];
  if (!node) throw new Error(`component ${name} is not in the 3.6 spec`);
  return node;
}

/** The TypeScript type of a schema node; `input` where it is a request field (variants closed). */
function render(node, input) {
  if (node.$ref) {
    const name = refName(node.$ref);
    const known = typeOf.get(name);
    if (known) {
      const entry = entryByName.get(known);
      return input && entry.open ? `Exclude<${known}, UnknownVariant>` : known;
    }
    const target = component(name);
    if (target.additionalProperties) return `{ [key: string]: ${render(target.additionalProperties, input)} }`;
    if (target.type === 'array') return `${wrap(render(target.items, input))}[]`;
    const keys = Object.keys(target.properties ?? {});
    if (keys.length === 1 && keys[0] === 'value') return `{ value: ${render(target.properties.value, input)} }`;
    throw new Error(`no type for ${name}: add it to the manifest`);
  }
  if (node.oneOf) throw new Error('an inline oneOf');
  switch (node.type) {
    case 'array':
      return `${wrap(render(node.items, input))}[]`;
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'string':
      if (node.enum) {
        const name = enumNames.get(node.enum.slice().sort().join('|'));
        return name ?? node.enum.map((v) => `'${v}'`).join(' | ');
      }
      return 'string';
    case undefined:
      // An untyped property is a Daml value (create and choice arguments, results, keys, views).
      return 'JsonValue';
    default:
      throw new Error(`unhandled type ${node.type}`);
  }
}

const wrap = (type) => (/[|&]/.test(type) ? `(${type})` : type);

/** The spec's description as doc-comment lines: ``x`` as `x`, without its closing "Required"/"Optional" line. */
function described(text) {
  if (typeof text !== 'string') return [];
  const lines = text
    .replace(/``([^`]+)``/g, '`$1`')
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => !/^\s*\/{3,}$/.test(l)); // the proto files' section rulers
  while (lines.length > 0 && /^(Required|Optional|)\.?$/.test(lines[lines.length - 1] ?? '')) lines.pop();
  return lines;
}

function docBlock(paragraphs, indent) {
  const lines = [];
  for (const paragraph of paragraphs.filter((p) => p.length > 0)) {
    if (lines.length > 0) lines.push('');
    lines.push(...paragraph);
  }
  if (lines.length === 0) return '';
  return `${indent}/**\n${lines.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`)).join('\n')}\n${indent} */\n`;
}

/** Where the 3.4 or 3.5 spec lacks this property of `component` (the component itself present there). */
function propertyNote(componentName, property) {
  const missing = Object.entries(older).filter(([, s]) => s[componentName] && !(property in (s[componentName].properties ?? {}))).map(([v]) => v);
  if (missing.length === 0) return [];
  return [`Not in the ${missing.join(' and ')} spec${missing.length > 1 ? 's' : ''}.`];
}

function componentNote(componentName) {
  const missing = Object.entries(older).filter(([, s]) => !s[componentName]).map(([v]) => v);
  return missing.length === 0 ? [] : [`Not in the ${missing.join(' and ')} spec${missing.length > 1 ? 's' : ''}.`];
}

function alternativeNote(componentName, alternatives) {
  const notes = [];
  for (const alternative of alternatives) {
    const missing = Object.entries(older)
      .filter(([, s]) => s[componentName] && !(s[componentName].oneOf ?? []).some((a) => alternative in (a.properties ?? {})))
      .map(([v]) => v);
    if (missing.length > 0) notes.push(`\`${alternative}\` is not in the ${missing.join(' and ')} spec${missing.length > 1 ? 's' : ''}.`);
  }
  return notes;
}

function typeDeclaration(entry) {
  const note = entry.note ? [entry.note] : [];
  if (entry.alias) return `${docBlock([note], '')}export type ${entry.name} = ${entry.alias};\n`;
  if (entry.enumOf) {
    const values = enumValues(entry);
    return `${docBlock([note], '')}export type ${entry.name} =\n${values.map((v) => `  | '${v}'`).join('\n')};\n`;
  }
  const node = component(entry.spec);
  const header = [described(node.description), note, componentNote(entry.spec)];
  if (node.oneOf) {
    const alternatives = node.oneOf.map((alternative) => {
      const [key, value] = Object.entries(alternative.properties ?? {})[0] ?? [];
      if (!key || !value) throw new Error(`${entry.spec}: an alternative without a property`);
      return [key, render(value, entry.input)];
    });
    header.push(alternativeNote(entry.spec, alternatives.map(([key]) => key)));
    const cases = alternatives.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, type]) => `  | { ${key}: ${type} }`);
    if (entry.open) cases.push('  | UnknownVariant');
    return `${docBlock(header, '')}export type ${entry.name} =\n${cases.join('\n')};\n`;
  }
  if (node.type !== 'object') throw new Error(`${entry.spec}: not an object (${node.type})`);
  const required = new Set(node.required ?? []);
  const members = Object.entries(node.properties ?? {}).map(([property, propertyNode]) => {
    const path = `${entry.spec}.${property}`;
    const exception = requiredExceptions[path];
    const isRequired = exception ? exception === 'required' : required.has(property);
    // The 3.6 spec is the union target: a field an older line lacks must be optional, or the type would
    // promise what a 3.4 or 3.5 participant does not send.
    for (const [version, older34] of Object.entries(older)) {
      const before = older34[entry.spec];
      if (isRequired && before && !(property in (before.properties ?? {}))) {
        throw new Error(`${entry.name}.${property} is required in 3.6 but not in the ${version} spec: make it optional`);
      }
    }
    const type = typeExceptions[path] ?? render(propertyNode, entry.input);
    const doc = docBlock([described(propertyNode.description), propertyNote(entry.spec, property)], '  ');
    // A Daml value may be null when present: a required one is any JSON; an optional one may be absent.
    if (type === 'JsonValue' && propertyNode.type === undefined && !typeExceptions[path]) {
      return `${doc}  ${property}${isRequired ? '' : '?'}: JsonValue${isRequired ? '' : ' | undefined'};`;
    }
    return `${doc}  ${property}${isRequired ? '' : '?'}: ${type}${isRequired ? '' : ' | null | undefined'};`;
  });
  if (members.length === 0) {
    return `${docBlock(header, '')}// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an empty message: {}\nexport interface ${entry.name} {}\n`;
  }
  return `${docBlock(header, '')}export interface ${entry.name} {\n${members.join('\n')}\n}\n`;
}

/** The schema files of the wire model. */
const schemasDir = args.includes('--schemas') ? resolve(args[args.indexOf('--schemas') + 1] ?? '') : join(root, 'src', 'schemas');
const concerns = ['common', 'events', 'updates', 'filters', 'active-contracts', 'commands', 'completions', 'state', 'parties', 'users', 'vetting', 'js-canton-error'];
const marker = '// ---- The wire types of this file, generated by scripts/generate-wire-types.mjs from the spec (docs/wire-types.md): do not edit below. ----';
/** Where the primitives' types are declared. */
const primitiveModules = { JsonValue: 'primitives', UnknownVariant: 'variant' };

/** The hand-written part of each schema file (what precedes the marker). */
const handWritten = new Map(concerns.map((c) => {
  const text = readFileSync(join(schemasDir, `${c}.ts`), 'utf8');
  const at = text.indexOf(marker);
  return [c, (at < 0 ? text : text.slice(0, at)).trimEnd()];
}));

/** Each type goes into the file that declares its schema (`export const Name`), or the manifest's `module`. */
const moduleOf = new Map();
for (const entry of manifest) {
  if (!entry.name) continue;
  const home = entry.module ?? concerns.find((c) => new RegExp(`^export const ${entry.name}\\b`, 'm').test(handWritten.get(c)));
  if (!home) throw new Error(`${entry.name}: no schema file declares \`export const ${entry.name}\` (or give the manifest entry a module)`);
  moduleOf.set(entry.name, home);
}

/** The names a file imports already (values merged with their types, or types). */
function importedNames(text) {
  const names = new Set();
  for (const match of text.matchAll(/^import (?:type )?\{([^}]*)\} from '\.\/[^']+';$/gm)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name = part.trim().replace(/^type /, '').split(/\s+as\s+/).pop();
      if (name) names.add(name);
    }
  }
  return names;
}

function generate() {
  const declarations = new Map(concerns.map((c) => [c, []]));
  for (const entry of manifest) {
    if (entry.name) declarations.get(moduleOf.get(entry.name)).push(typeDeclaration(entry));
  }
  const files = new Map();
  for (const concern of concerns) {
    const body = declarations.get(concern);
    const text = handWritten.get(concern);
    if (body.length === 0) {
      files.set(concern, `${text}\n`);
      continue;
    }
    const declared = new Set(manifest.filter((e) => e.name && moduleOf.get(e.name) === concern).map((e) => e.name));
    const imported = importedNames(text);
    const needed = new Map();
    const code = body.join('\n').replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/'[^']*'/g, '');
    for (const name of new Set(code.match(/\b[A-Z][A-Za-z0-9]*\b/g) ?? [])) {
      const home = moduleOf.get(name) ?? primitiveModules[name];
      if (!home || declared.has(name) || imported.has(name)) continue;
      if (!needed.has(home)) needed.set(home, []);
      needed.get(home).push(name);
    }
    const imports = [...needed.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([home, names]) => `import type { ${names.sort().join(', ')} } from './${home}.js';`);
    files.set(concern, `${text}\n\n${marker}\n${imports.length > 0 ? `\n${imports.join('\n')}\n` : ''}\n${body.join('\n').trimEnd()}\n`);
  }
  return files;
}

const files = generate();
if (args.includes('--check')) {
  const stale = concerns.filter((c) => readFileSync(join(schemasDir, `${c}.ts`), 'utf8') !== files.get(c)).map((c) => join(schemasDir, `${c}.ts`));
  if (stale.length > 0) {
    process.stderr.write(`generate-wire-types: not what the script writes from the spec: ${stale.join(', ')}: run node scripts/generate-wire-types.mjs\n`);
    process.exit(1);
  }
  process.stdout.write('generate-wire-types: the wire types are current\n');
} else {
  for (const [concern, text] of files) writeFileSync(join(schemasDir, `${concern}.ts`), text);
}
