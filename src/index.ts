/**
 * ledger-rx: the update stream of a Canton participant's JSON Ledger API v2 as RxJS observables, with a
 * typed client for the operations around it.
 *
 * This entry point lists its public names one by one; every one is documented where it is declared.
 * Subpaths: `ledger-rx/filters` (the UpdateFormat builder), `ledger-rx/operators` (tailUpdates,
 * readDescending, trackCheckpoint), `ledger-rx/sinks` (the sink contract), `ledger-rx/postgres` (PostgreSQL
 * checkpoint store and sink), `ledger-rx/jetstream` (NATS JetStream sink and consumer), `ledger-rx/metrics`
 * (Prometheus), `ledger-rx/tracing` (OpenTelemetry: continuing an update's trace), `ledger-rx/sandbox` (the
 * embedded participant), `ledger-rx/schemas` (the zod schemas of the wire model, whose types are exported
 * here). What the filters and operators subpaths export is exported here too.
 *
 * @module ledger-rx
 */

// The client of the JSON Ledger API.
export { changeId, createLedgerClient, fieldMask, newCommandId, newSubmissionId, userUpdatePaths } from './client/index.js';
export type {
  ActiveContractsOptions,
  ActiveContractsPage,
  ActiveContractsPageOptions,
  ActiveContractsRequest,
  ActiveContractsStatus,
  ActiveContractsTransport,
  CallOptions,
  ChangeIdParts,
  CompletionsOptions,
  CompletionsTransport,
  LedgerClient,
  LedgerClientOptions,
  LedgerClientProxyOptions,
  LedgerClientTlsOptions,
  ParticipantVersionInfo,
  VersionedOperation,
  VersionedOperationName,
  ListAllVettedPackagesOptions,
  StreamConnection,
  StreamUpdatesOptions,
  Transport,
  UpdatesCallOptions,
  UpdatesOptions,
  UpdatesPage,
  UpdatesPageCallOptions,
  UpdatesPageOptions,
  UpdateVettedPackagesOptions,
  UserFields,
} from './client/index.js';

// The error hierarchy.
export {
  AbortError,
  CommandFailedError,
  CommandOutcomeUnknownError,
  errorCategory,
  ErrorCodes,
  InvalidArgumentError,
  isLedgerRxError,
  LedgerApiError,
  LedgerRxError,
  PeerDependencyMissingError,
  ProtocolError,
  PrunedOffsetError,
  RetriesExhaustedError,
  TransportError,
  UnsupportedByParticipantVersionError,
} from './errors/index.js';
export type {
  CantonErrorBody,
  CommandFailedInit,
  CommandOutcomeUnknownInit,
  CommandStatus,
  ErrorCategoryInfo,
  ErrorCode,
  LedgerApiErrorInit,
  ProtocolErrorCode,
  ProtocolIssue,
  TransportErrorCode,
  UnsupportedByParticipantVersionInit,
} from './errors/index.js';

// What to read: the UpdateFormat builder (also `ledger-rx/filters`).
export {
  checkLegacyTreeRequest,
  EventFormatBuilder,
  fromLegacyFilter,
  TransactionFormatBuilder,
  updateFormat,
  UpdateFormatBuilder,
} from './filters/index.js';
export type { EventFormatSpec, InterfaceFilterOptions, Shape, TemplateFilterOptions } from './filters/index.js';

// Resumable reads and checkpoints (also `ledger-rx/operators`).
export {
  activeContractsSnapshot,
  allVettedPackages,
  liveContracts,
  readDescending,
  snapshotThenUpdates,
  submitAndTrack,
  tailCompletions,
  tailUpdates,
  trackCheckpoint,
  trackCommands,
} from './operators/index.js';
export type {
  ActiveContractsPageAnswer,
  ActiveContractsSnapshotConfig,
  ActiveContractsSnapshotOptions,
  ActiveContractsSnapshotRequest,
  AllVettedPackagesConfig,
  Checkpoint,
  CheckpointStore,
  CommandCommitted,
  CommandOutcome,
  CommandSource,
  CompletionsReadOptions,
  CompletionsSource,
  DeliveredCounts,
  LiveContracts,
  LiveContractsConfig,
  PagedReadOptions,
  PageReadOptions,
  ReadDescendingConfig,
  ReadTransport,
  RequestOutcome,
  RetryConfig,
  SnapshotElement,
  SnapshotSource,
  SnapshotThenUpdatesConfig,
  StreamReadOptions,
  SubmitAndTrackConfig,
  TailCompletionsConfig,
  TailStatus,
  TailUpdatesConfig,
  TrackCheckpointConfig,
  TrackCommandsConfig,
  TransportOption,
  TransportVersionInfo,
  UpdatesPageAnswer,
  UpdatesSource,
  VettedPackagesSource,
} from './operators/index.js';

// Checkpoint stores.
export { FileCheckpointStore, MemoryCheckpointStore } from './checkpoints/index.js';

// The update element and the body decoder, for reading an answer's bytes yourself.
export { decodeUpdateElement, elementText, isOffsetCheckpoint, updateOffset, updateTraceContext } from './updates/index.js';
export type { DecodeUpdateElementOptions, UpdateTraceHeaders } from './updates/index.js';
export { DEFAULT_MAX_BUFFERED_ELEMENT_BYTES, iterateJsonArrayBody, JsonArrayScanner, observeJsonArrayBody } from './streams/index.js';
export type { JsonArrayBody, JsonArrayBodyOptions, JsonArrayElementHandler, JsonArrayScannerOptions } from './streams/index.js';

// The active contracts at an offset and the set kept current by updates.
export { ActiveSet, ContractMap, contractEntryKind, decodeActiveContractsElement } from './active-contracts/index.js';
export type { ActiveSetChange, ContractEntryKind } from './active-contracts/index.js';

// Command completions: the outcome of a submission, matched to it.
export { completionMatches, completionOf, completionOffset, decodeCompletionElement, isCompletionCheckpoint } from './completions/index.js';
export type { SubmissionKey } from './completions/index.js';

// The wire model's types, named after the OpenAPI components (the zod schemas that parse them are in
// `ledger-rx/schemas`), and `isUnknownVariant` for the variants this version does not know.
export { isUnknownVariant } from './schemas/variant.js';
export type {
  GetActiveContractsPageRequest, GetActiveContractsRequest, JsActiveContract, JsAssignedEvent, JsContractEntry,
  JsEmpty, JsGetActiveContractsPageResponse, JsGetActiveContractsResponse, JsIncompleteAssigned,
  JsIncompleteUnassigned,
} from './schemas/active-contracts.js';
export type {
  AssignCommand, Command, CreateAndExerciseCommand, CreateCommand, DeduplicationPeriod, DisclosedContract,
  ExerciseByKeyCommand, ExerciseCommand, JsCommands, JsSubmitAndWaitForReassignmentResponse, PrefetchContractKey,
  ReassignmentCommand, ReassignmentCommands, ReassignmentCommandVariant, SubmitAndWaitForReassignmentRequest,
  SubmitResponse, UnassignCommand,
} from './schemas/commands.js';
export type {
  Duration, Empty, Field, FieldMask, JsStatus, ObjectMeta, ProtoAny, SynchronizerTime, TraceContext,
  UnknownFieldSet,
} from './schemas/common.js';
export type {
  Completion, CompletionDeduplicationPeriod, CompletionResponse, CompletionStreamRequest, CompletionStreamResponse,
  GetCompletionByHashRequest, GetCompletionByHashResponse, GetCompletionsRequest,
} from './schemas/completions.js';
export type {
  ArchivedEvent, CreatedEvent, Event, ExercisedEvent, JsAssignmentEvent, JsInterfaceView, JsReassignmentEvent,
  ParticipantAuthorizationAdded, ParticipantAuthorizationChanged, ParticipantAuthorizationOnboarding,
  ParticipantAuthorizationRevoked, ParticipantPermission, TopologyEvent, TopologyEventEvent, UnassignedEvent,
} from './schemas/events.js';
export type {
  CumulativeFilter, EventFormat, Filters, IdentifierFilter, InterfaceFilter,
  ParticipantAuthorizationTopologyFormat, TemplateFilter, TopologyFormat, TransactionFilter, TransactionFormat,
  TransactionShape, UpdateFormat, WildcardFilter,
} from './schemas/filters.js';
export type { JsCantonError } from './schemas/js-canton-error.js';
export type {
  AllocatePartyRequest, AllocatePartyResponse, ListKnownPartiesResponse, ListPackagesResponse, PartyDetails,
} from './schemas/parties.js';
export type {
  ExperimentalCommandInspectionService, ExperimentalFeatures, ExperimentalStaticTime, FeaturesDescriptor,
  GetLatestPrunedOffsetsResponse, GetLedgerApiVersionResponse, GetLedgerEndResponse, OffsetCheckpointFeature,
  PackageFeature, PartyManagementFeature, UserManagementFeature,
} from './schemas/state.js';
export type {
  GetUpdateByHashRequest, GetUpdatesPageRequest, GetUpdatesRequest, JsGetUpdateResponse, JsGetUpdatesPageResponse,
  JsGetUpdatesResponse, JsReassignment, JsTopologyTransaction, JsTransaction, OffsetCheckpoint, Update,
} from './schemas/updates.js';
export type {
  CanActAs, CanActAsAnyParty, CanExecuteAs, CanExecuteAsAnyParty, CanReadAs, CanReadAsAnyParty, CreateUserRequest,
  CreateUserResponse, GetUserResponse, GrantUserRightsRequest, GrantUserRightsResponse, IdentityProviderAdmin,
  Kind, ListUserRightsResponse, ParticipantAdmin, RevokeUserRightsRequest, RevokeUserRightsResponse, Right,
  RightInput, UpdateUserRequest, UpdateUserResponse, User, UserInput,
} from './schemas/users.js';
export type {
  ListVettedPackagesRequest, ListVettedPackagesResponse, NoPrior, Operation, PackageMetadataFilter, Prior,
  PriorTopologySerial, Serial, TopologyStateFilter, Unvet, UpdateVettedPackagesForceFlag,
  UpdateVettedPackagesRequest, UpdateVettedPackagesResponse, Vet, VettedPackage, VettedPackages,
  VettedPackagesChange, VettedPackagesRef,
} from './schemas/vetting.js';
export type { JsonValue } from './schemas/primitives.js';
export type { UnknownVariant } from './schemas/variant.js';
