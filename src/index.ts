/**
 * ledger-rx: the update stream of a Canton participant's JSON Ledger API v2 as RxJS observables, with a
 * typed client for the operations around it.
 *
 * This entry point lists its public names one by one; every one is documented where it is declared.
 * Subpaths: `ledger-rx/filters` (the UpdateFormat builder), `ledger-rx/operators` (tailUpdates,
 * readDescending, trackCheckpoint), `ledger-rx/sinks` (the sink contract), `ledger-rx/postgres` (PostgreSQL
 * checkpoint store and sink), `ledger-rx/jetstream` (NATS JetStream sink and consumer), `ledger-rx/metrics`
 * (Prometheus), `ledger-rx/tracing` (OpenTelemetry: continuing an update's trace), `ledger-rx/sandbox` (the
 * embedded participant). What the filters and operators subpaths export is exported here too.
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
  LedgerClientTlsOptions,
  ParticipantVersionInfo,
  VersionedOperation,
  VersionedOperationName,
  ListAllVettedPackagesOptions,
  StreamConnection,
  StreamUpdatesOptions,
  UpdatesCallOptions,
  UpdatesPage,
  UpdatesPageCallOptions,
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
  ActiveContractsSnapshotConfig,
  ActiveContractsSnapshotOptions,
  ActiveContractsSnapshotRequest,
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
  UpdatesPageAnswer,
  UpdatesPageOptions,
  UpdatesSource,
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

// The wire model: zod schemas named after the OpenAPI components, each with its type; `isUnknownVariant`.
export {
  AllocatePartyRequest, AllocatePartyResponse, ArchivedEvent, AssignCommand, CanActAs, CanActAsAnyParty,
  CanExecuteAs, CanExecuteAsAnyParty, CanReadAs, CanReadAsAnyParty, Command, CreateAndExerciseCommand,
  CreateCommand, CreatedEvent, CreateUserRequest, CreateUserResponse, CumulativeFilter, DamlValue,
  DeduplicationPeriod, DisclosedContract, Duration, Empty, Event, EventFormat, ExerciseByKeyCommand,
  ExerciseCommand, ExercisedEvent, ExperimentalCommandInspectionService, ExperimentalFeatures,
  ExperimentalStaticTime, FeaturesDescriptor, Field, FieldMask, Filters, GetLatestPrunedOffsetsResponse,
  GetLedgerApiVersionResponse, GetLedgerEndResponse, GetUpdatesPageRequest, GetUpdatesRequest,
  GetUserResponse, GrantUserRightsRequest, GrantUserRightsResponse, IdentifierFilter, IdentityProviderAdmin,
  Int32, Int64, InterfaceFilter, isUnknownVariant, JsAssignmentEvent, JsCantonError, JsCommands,
  JsGetUpdateResponse, JsGetUpdatesPageResponse, JsGetUpdatesResponse, JsInterfaceView, JsReassignment,
  JsReassignmentEvent, JsStatus, JsSubmitAndWaitForReassignmentResponse, JsTopologyTransaction,
  JsTransaction, Kind, ListKnownPartiesResponse, ListPackagesResponse, ListUserRightsResponse,
  ListVettedPackagesRequest, ListVettedPackagesResponse, MapFilters, MapIntField, MapString, NoPrior,
  ObjectMeta, Offset, OffsetCheckpoint, OffsetCheckpointFeature, Operation, OptionalDamlValue,
  PackageFeature, PackageMetadataFilter, ParticipantAdmin, ParticipantAuthorizationAdded,
  ParticipantAuthorizationChanged, ParticipantAuthorizationOnboarding, ParticipantAuthorizationRevoked,
  ParticipantAuthorizationTopologyFormat, ParticipantPermission, PartyDetails, PartyManagementFeature,
  PrefetchContractKey, Prior, PriorTopologySerial, ProtoAny, ReassignmentCommand, ReassignmentCommands,
  ReassignmentCommandVariant, RevokeUserRightsRequest, RevokeUserRightsResponse, Right, Serial,
  SubmitAndWaitForReassignmentRequest, SubmitResponse, SynchronizerTime, TemplateFilter, Timestamp,
  TopologyEvent, TopologyEventEvent, TopologyFormat, TopologyStateFilter, TraceContext, TransactionFilter,
  TransactionFormat, TransactionShape, Tuple2StringString, UnassignCommand, UnassignedEvent, UnknownFieldSet,
  Unvet, Update, UpdateFormat, UpdateUserRequest, UpdateUserResponse, UpdateVettedPackagesForceFlag,
  UpdateVettedPackagesRequest, UpdateVettedPackagesResponse, User, UserManagementFeature, Vet, VettedPackage,
  VettedPackages, VettedPackagesChange, VettedPackagesRef, WildcardFilter,
} from './schemas/index.js';
export type { JsonValue, RightInput, UnknownVariant, UserInput } from './schemas/index.js';
// The wire model of active contracts and completions.
export {
  Completion, CompletionDeduplicationPeriod, CompletionResponse, CompletionStreamRequest, CompletionStreamResponse,
  GetActiveContractsPageRequest, GetActiveContractsRequest, GetCompletionsRequest, JsActiveContract, JsAssignedEvent,
  JsContractEntry, JsEmpty, JsGetActiveContractsPageResponse, JsGetActiveContractsResponse, JsIncompleteAssigned,
  JsIncompleteUnassigned,
} from './schemas/index.js';

