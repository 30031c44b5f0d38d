/**
 * `ledger-rx/schemas`: the wire model as zod 4 schemas, named after the components of the JSON Ledger API's
 * OpenAPI specification (`JsGetUpdatesResponse`, `GetUpdatesRequest`, `JsCommands`...), each with the type
 * of the value it parses (the types are exported from `ledger-rx` too), and `isUnknownVariant` for the
 * variants this version does not know. Every schema is built on first use with the application's zod (a
 * peer dependency). Use them to validate what you read or send yourself; the client validates its
 * requests and answers on its own.
 *
 * @module ledger-rx/schemas
 */
export {
  GetActiveContractsPageRequest, GetActiveContractsRequest, JsActiveContract, JsAssignedEvent, JsContractEntry,
  JsEmpty, JsGetActiveContractsPageResponse, JsGetActiveContractsResponse, JsIncompleteAssigned,
  JsIncompleteUnassigned,
} from './active-contracts.js';
export {
  AssignCommand, Command, CreateAndExerciseCommand, CreateCommand, DeduplicationPeriod, DisclosedContract,
  ExerciseByKeyCommand, ExerciseCommand, JsCommands, JsSubmitAndWaitForReassignmentResponse, PrefetchContractKey,
  ReassignmentCommand, ReassignmentCommands, ReassignmentCommandVariant, SubmitAndWaitForReassignmentRequest,
  SubmitResponse, UnassignCommand,
} from './commands.js';
export {
  Duration, Empty, Field, FieldMask, JsStatus, MapIntField, MapString, ObjectMeta, ProtoAny, SynchronizerTime,
  TraceContext, Tuple2StringString, UnknownFieldSet,
} from './common.js';
export {
  Completion, CompletionDeduplicationPeriod, CompletionResponse, CompletionStreamRequest, CompletionStreamResponse,
  GetCompletionByHashRequest, GetCompletionByHashResponse, GetCompletionsRequest,
} from './completions.js';
export {
  ArchivedEvent, CreatedEvent, Event, ExercisedEvent, JsAssignmentEvent, JsInterfaceView, JsReassignmentEvent,
  ParticipantAuthorizationAdded, ParticipantAuthorizationChanged, ParticipantAuthorizationOnboarding,
  ParticipantAuthorizationRevoked, ParticipantPermission, TopologyEvent, TopologyEventEvent, UnassignedEvent,
} from './events.js';
export {
  CumulativeFilter, EventFormat, Filters, IdentifierFilter, InterfaceFilter, MapFilters,
  ParticipantAuthorizationTopologyFormat, TemplateFilter, TopologyFormat, TransactionFilter, TransactionFormat,
  TransactionShape, UpdateFormat, WildcardFilter,
} from './filters.js';
export { JsCantonError } from './js-canton-error.js';
export {
  AllocatePartyRequest, AllocatePartyResponse, ListKnownPartiesResponse, ListPackagesResponse, PartyDetails,
} from './parties.js';
export { DamlValue, Int32, Int64, Offset, OptionalDamlValue, Timestamp } from './primitives.js';
export type { JsonValue } from './primitives.js';
export {
  ExperimentalCommandInspectionService, ExperimentalFeatures, ExperimentalStaticTime, FeaturesDescriptor,
  GetLatestPrunedOffsetsResponse, GetLedgerApiVersionResponse, GetLedgerEndResponse, OffsetCheckpointFeature,
  PackageFeature, PartyManagementFeature, UserManagementFeature,
} from './state.js';
export {
  GetUpdateByHashRequest, GetUpdatesPageRequest, GetUpdatesRequest, JsGetUpdateResponse, JsGetUpdatesPageResponse, JsGetUpdatesResponse,
  JsReassignment, JsTopologyTransaction, JsTransaction, OffsetCheckpoint, Update,
} from './updates.js';
export {
  CanActAs, CanActAsAnyParty, CanExecuteAs, CanExecuteAsAnyParty, CanReadAs, CanReadAsAnyParty, CreateUserRequest,
  CreateUserResponse, GetUserResponse, GrantUserRightsRequest, GrantUserRightsResponse, IdentityProviderAdmin, Kind,
  ListUserRightsResponse, ParticipantAdmin, RevokeUserRightsRequest, RevokeUserRightsResponse, Right,
  UpdateUserRequest, UpdateUserResponse, User,
} from './users.js';
export type { RightInput, UserInput } from './users.js';
export { isUnknownVariant } from './variant.js';
export type { WireSchema } from './wire-schema.js';
export type { UnknownVariant } from './variant.js';
export {
  ListVettedPackagesRequest, ListVettedPackagesResponse, NoPrior, Operation, PackageMetadataFilter, Prior,
  PriorTopologySerial, Serial, TopologyStateFilter, Unvet, UpdateVettedPackagesForceFlag,
  UpdateVettedPackagesRequest, UpdateVettedPackagesResponse, Vet, VettedPackage, VettedPackages,
  VettedPackagesChange, VettedPackagesRef,
} from './vetting.js';
