import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { wireSchema, type WireSchema } from './wire-schema.js';
import { Empty, JsStatus } from './common.js';
import { DamlValue, Int32, Int64, Offset, OptionalDamlValue, Timestamp } from './primitives.js';
import { variant, wrapped } from './variant.js';

/** `JsInterfaceView`: an interface view computed for a created contract. */
export const JsInterfaceView: WireSchema<JsInterfaceView> = wireSchema(() => z.looseObject({
  interfaceId: z.string(),
  viewStatus: built(JsStatus),
  viewValue: built(OptionalDamlValue),
  implementationPackageId: z.string().nullish(),
}));

/** `CreatedEvent`: a contract was created. `templateId` is in package-id form. */
export const CreatedEvent: WireSchema<CreatedEvent> = wireSchema(() => z.looseObject({
  offset: built(Offset),
  nodeId: built(Int32),
  contractId: z.string(),
  templateId: z.string(),
  contractKey: built(OptionalDamlValue),
  contractKeyHash: z.string().nullish(),
  createArgument: built(DamlValue),
  createdEventBlob: z.string().nullish(),
  interfaceViews: z.array(built(JsInterfaceView)).nullish(),
  witnessParties: z.array(z.string()),
  signatories: z.array(z.string()),
  observers: z.array(z.string()).nullish(),
  createdAt: built(Timestamp),
  packageName: z.string(),
  representativePackageId: z.string(),
  acsDelta: z.boolean(),
}));

/** `ArchivedEvent`: a contract was archived (ACS-delta shape). */
export const ArchivedEvent: WireSchema<ArchivedEvent> = wireSchema(() => z.looseObject({
  offset: built(Offset),
  nodeId: built(Int32),
  contractId: z.string(),
  templateId: z.string(),
  witnessParties: z.array(z.string()),
  packageName: z.string(),
  implementedInterfaces: z.array(z.string()).nullish(),
}));

/** `ExercisedEvent`: a choice was exercised (ledger-effects shape). */
export const ExercisedEvent: WireSchema<ExercisedEvent> = wireSchema(() => z.looseObject({
  offset: built(Offset),
  nodeId: built(Int32),
  contractId: z.string(),
  templateId: z.string(),
  interfaceId: z.string().nullish(),
  choice: z.string(),
  choiceArgument: built(DamlValue),
  actingParties: z.array(z.string()),
  consuming: z.boolean(),
  witnessParties: z.array(z.string()),
  lastDescendantNodeId: built(Int32),
  exerciseResult: built(OptionalDamlValue),
  packageName: z.string(),
  implementedInterfaces: z.array(z.string()).nullish(),
  acsDelta: z.boolean(),
}));

/** The alternatives of `Event`; the fields sit directly under the alternative's name (no `"value"`). */
export const eventCases = { ArchivedEvent, CreatedEvent, ExercisedEvent };

/** `Event`. */
export const Event: WireSchema<Event> = wireSchema(() => variant('Event', eventCases, { open: true }));

/** `UnassignedEvent`: a contract left a synchronizer. */
export const UnassignedEvent: WireSchema<UnassignedEvent> = wireSchema(() => z.looseObject({
  reassignmentId: z.string(),
  contractId: z.string(),
  templateId: z.string(),
  source: z.string(),
  target: z.string(),
  submitter: z.string().nullish(),
  reassignmentCounter: built(Int64),
  assignmentExclusivity: built(Timestamp).nullish(),
  witnessParties: z.array(z.string()),
  packageName: z.string(),
  offset: built(Offset),
  nodeId: built(Int32),
}));

/** `JsAssignmentEvent`: a contract arrived on a synchronizer. */
export const JsAssignmentEvent: WireSchema<JsAssignmentEvent> = wireSchema(() => z.looseObject({
  source: z.string(),
  target: z.string(),
  reassignmentId: z.string(),
  submitter: z.string(),
  reassignmentCounter: built(Int64),
  createdEvent: built(CreatedEvent),
}));

/** The alternatives of `JsReassignmentEvent`: assignments carry fields directly, unassignments a `"value"`. */
export const reassignmentEventCases = {
  JsAssignmentEvent,
  JsUnassignedEvent: lazySchema(() => wrapped(built(UnassignedEvent))),
};

/** `JsReassignmentEvent`. */
export const JsReassignmentEvent: WireSchema<JsReassignmentEvent> = wireSchema(() => variant('JsReassignmentEvent', reassignmentEventCases, { open: true }));

/** The participant permission enum of topology events. */
export const ParticipantPermission: WireSchema<ParticipantPermission> = wireSchema(() => z.enum([
  'PARTICIPANT_PERMISSION_UNSPECIFIED',
  'PARTICIPANT_PERMISSION_SUBMISSION',
  'PARTICIPANT_PERMISSION_CONFIRMATION',
  'PARTICIPANT_PERMISSION_OBSERVATION',
]));

/** `ParticipantAuthorizationAdded` (payload). */
export const ParticipantAuthorizationAdded: WireSchema<ParticipantAuthorizationAdded> = wireSchema(() => z.looseObject({
  partyId: z.string(),
  participantId: z.string(),
  participantPermission: built(ParticipantPermission),
}));
/** `ParticipantAuthorizationChanged` (payload). */
export const ParticipantAuthorizationChanged: WireSchema<ParticipantAuthorizationChanged> = wireSchema(() => built(ParticipantAuthorizationAdded).clone());
/** `ParticipantAuthorizationOnboarding` (payload). */
export const ParticipantAuthorizationOnboarding: WireSchema<ParticipantAuthorizationOnboarding> = wireSchema(() => built(ParticipantAuthorizationAdded).clone());
/** `ParticipantAuthorizationRevoked` (payload). */
export const ParticipantAuthorizationRevoked: WireSchema<ParticipantAuthorizationRevoked> = wireSchema(() => z.looseObject({
  partyId: z.string(),
  participantId: z.string(),
}));

/** The alternatives of `TopologyEventEvent`; every one wraps its payload in `"value"`. */
export const topologyEventCases = {
  Empty,
  ParticipantAuthorizationAdded: lazySchema(() => wrapped(built(ParticipantAuthorizationAdded))),
  ParticipantAuthorizationChanged: lazySchema(() => wrapped(built(ParticipantAuthorizationChanged))),
  ParticipantAuthorizationOnboarding: lazySchema(() => wrapped(built(ParticipantAuthorizationOnboarding))),
  ParticipantAuthorizationRevoked: lazySchema(() => wrapped(built(ParticipantAuthorizationRevoked))),
};

/** `TopologyEventEvent`. */
export const TopologyEventEvent: WireSchema<TopologyEventEvent> = wireSchema(() => variant('TopologyEventEvent', topologyEventCases, { open: true }));

/** `TopologyEvent`. */
export const TopologyEvent: WireSchema<TopologyEvent> = wireSchema(() => z.looseObject({ event: built(TopologyEventEvent).nullish() }));

// ---- The wire types of this file, generated by scripts/generate-wire-types.mjs from the spec (docs/wire-types.md): do not edit below. ----

import type { JsonValue } from './primitives.js';
import type { UnknownVariant } from './variant.js';

/**
 * View of a create event matched by an interface filter.
 */
export interface JsInterfaceView {
  /**
   * The interface implemented by the matched event.
   * The identifier uses the package-id reference format.
   */
  interfaceId: string;
  /**
   * Whether the view was successfully computed, and if not,
   * the reason for the error. The error is reported using the same rules
   * for error codes and messages as the errors returned for API requests.
   */
  viewStatus: JsStatus;
  /**
   * The value of the interface's view method on this event.
   * Set if it was requested in the `InterfaceFilter` and it could be
   * successfully computed.
   */
  viewValue?: JsonValue | undefined;
  /**
   * The package defining the interface implementation used to compute the view.
   * Can be different from the package that was used to create the contract itself,
   * as the contract arguments can be upgraded or downgraded using smart-contract upgrading
   * as part of computing the interface view.
   * Populated if the view computation is successful, otherwise empty.
   *
   * Not in the 3.4 spec.
   */
  implementationPackageId?: string | null | undefined;
}

/**
 * Records that a contract has been created, and choices may now be exercised on it.
 */
export interface CreatedEvent {
  /**
   * The offset of origin, which has contextual meaning, please see description at messages that include a CreatedEvent.
   * Offsets are managed by the participant nodes.
   * Transactions can thus NOT be assumed to have the same offsets on different participant nodes.
   * It is a valid absolute offset (positive integer)
   */
  offset: number;
  /**
   * The position of this event in the originating transaction or reassignment.
   * The origin has contextual meaning, please see description at messages that include a CreatedEvent.
   * Node IDs are not necessarily equal across participants,
   * as these may see different projections/parts of transactions.
   * Must be valid node ID (non-negative integer)
   */
  nodeId: number;
  /**
   * The ID of the created contract.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  contractId: string;
  /**
   * The template of the created contract.
   * The identifier uses the package-id reference format.
   */
  templateId: string;
  /**
   * The key of the created contract.
   * This will be set if and only if `template_id` defines a contract key.
   */
  contractKey?: JsonValue | undefined;
  /**
   * The hash of contract_key.
   * This will be set if and only if `template_id` defines a contract key.
   *
   * Optional: can be empty
   *
   * Not in the 3.4 spec.
   */
  contractKeyHash?: string | null | undefined;
  /**
   * The arguments that have been used to create the contract.
   */
  createArgument: JsonValue;
  /**
   * Opaque representation of contract create event payload intended for forwarding
   * to an API server as a contract disclosed as part of a command
   * submission.
   *
   * Optional: can be empty
   */
  createdEventBlob?: string | null | undefined;
  /**
   * Interface views specified in the transaction filter.
   * Includes an `InterfaceView` for each interface for which there is a `InterfaceFilter` with
   *
   * - its party in the `witness_parties` of this event,
   * - and which is implemented by the template of this event,
   * - and which has `include_interface_view` set.
   *
   * Optional: can be empty
   */
  interfaceViews?: JsInterfaceView[] | null | undefined;
  /**
   * The parties that are notified of this event. When a `CreatedEvent`
   * is returned as part of a transaction tree or ledger-effects transaction, this will include all
   * the parties specified in the `TransactionFilter` that are witnesses  of the event
   * (the stakeholders of the contract and all informees of all the ancestors
   * of this create action that this participant knows about).
   * If served as part of a ACS delta transaction those will
   * be limited to all parties specified in the `TransactionFilter` that
   * are stakeholders of the contract (i.e. either signatories or observers).
   * If the `CreatedEvent` is returned as part of an AssignedEvent,
   * ActiveContract or IncompleteUnassigned (so the event is related to
   * an assignment or unassignment): this will include all parties of the
   * `TransactionFilter` that are stakeholders of the contract.
   *
   * The behavior of reading create events visible to parties not hosted
   * on the participant node serving the Ledger API is undefined. Concretely,
   * there is neither a guarantee that the participant node will serve all their
   * create events on the ACS stream, nor is there a guarantee that matching archive
   * events are delivered for such create events.
   *
   * For most clients this is not a problem, as they only read events for parties
   * that are hosted on the participant node. If you need to read events
   * for parties that may not be hosted at all times on the participant node,
   * subscribe to the `TopologyEvent`s for that party by setting a corresponding
   * `UpdateFormat`.  Using these events, query the ACS as-of an offset where the
   * party is hosted on the participant node, and ignore create events at offsets
   * where the party is not hosted on the participant node.
   *
   * Required: must be non-empty
   */
  witnessParties: string[];
  /**
   * The signatories for this contract as specified by the template.
   *
   * Required: must be non-empty
   */
  signatories: string[];
  /**
   * The observers for this contract as specified explicitly by the template or implicitly as choice controllers.
   * This field never contains parties that are signatories.
   *
   * Optional: can be empty
   */
  observers?: string[] | null | undefined;
  /**
   * Ledger effective time of the transaction that created the contract.
   */
  createdAt: string;
  /**
   * The package name of the created contract.
   */
  packageName: string;
  /**
   * A package-id present in the participant package store that typechecks the contract's argument.
   * This may differ from the package-id of the template used to create the contract.
   * For contracts created before Canton 3.4, this field matches the contract's creation package-id.
   *
   * NOTE: Experimental, server internal concept, not for client consumption. Subject to change without notice.
   */
  representativePackageId: string;
  /**
   * Whether this event would be part of respective ACS_DELTA shaped stream,
   * and should therefore considered when tracking contract activeness on the client-side.
   */
  acsDelta: boolean;
}

/**
 * Records that a contract has been archived, and choices may no longer be exercised on it.
 */
export interface ArchivedEvent {
  /**
   * The offset of origin.
   * Offsets are managed by the participant nodes.
   * Transactions can thus NOT be assumed to have the same offsets on different participant nodes.
   * It is a valid absolute offset (positive integer)
   */
  offset: number;
  /**
   * The position of this event in the originating transaction or reassignment.
   * Node IDs are not necessarily equal across participants,
   * as these may see different projections/parts of transactions.
   * Must be valid node ID (non-negative integer)
   */
  nodeId: number;
  /**
   * The ID of the archived contract.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  contractId: string;
  /**
   * Identifies the template that defines the choice that archived the contract.
   * This template's package-id may differ from the target contract's package-id
   * if the target contract has been upgraded or downgraded.
   *
   * The identifier uses the package-id reference format.
   */
  templateId: string;
  /**
   * The parties that are notified of this event. For an `ArchivedEvent`,
   * these are the intersection of the stakeholders of the contract in
   * question and the parties specified in the `TransactionFilter`. The
   * stakeholders are the union of the signatories and the observers of
   * the contract.
   * Each one of its elements must be a valid PartyIdString (as described
   * in `value.proto`).
   *
   * Required: must be non-empty
   */
  witnessParties: string[];
  /**
   * The package name of the contract.
   */
  packageName: string;
  /**
   * The interfaces implemented by the target template that have been
   * matched from the interface filter query.
   * Populated only in case interface filters with include_interface_view set.
   *
   * If defined, the identifier uses the package-id reference format.
   *
   * Optional: can be empty
   */
  implementedInterfaces?: string[] | null | undefined;
}

/**
 * Records that a choice has been exercised on a target contract.
 */
export interface ExercisedEvent {
  /**
   * The offset of origin.
   * Offsets are managed by the participant nodes.
   * Transactions can thus NOT be assumed to have the same offsets on different participant nodes.
   * It is a valid absolute offset (positive integer)
   */
  offset: number;
  /**
   * The position of this event in the originating transaction or reassignment.
   * Node IDs are not necessarily equal across participants,
   * as these may see different projections/parts of transactions.
   * Must be valid node ID (non-negative integer)
   */
  nodeId: number;
  /**
   * The ID of the target contract.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  contractId: string;
  /**
   * Identifies the template that defines the executed choice.
   * This template's package-id may differ from the target contract's package-id
   * if the target contract has been upgraded or downgraded.
   *
   * The identifier uses the package-id reference format.
   */
  templateId: string;
  /**
   * The interface where the choice is defined, if inherited.
   * If defined, the identifier uses the package-id reference format.
   */
  interfaceId?: string | null | undefined;
  /**
   * The choice that was exercised on the target contract.
   * Must be a valid NameString (as described in `value.proto`).
   */
  choice: string;
  /**
   * The argument of the exercised choice.
   */
  choiceArgument: JsonValue;
  /**
   * The parties that exercised the choice.
   * Each element must be a valid PartyIdString (as described in `value.proto`).
   *
   * Required: must be non-empty
   */
  actingParties: string[];
  /**
   * If true, the target contract may no longer be exercised.
   */
  consuming: boolean;
  /**
   * The parties that are notified of this event. The witnesses of an exercise
   * node will depend on whether the exercise was consuming or not.
   * If consuming, the witnesses are the union of the stakeholders,
   * the actors and all informees of all the ancestors of this event this
   * participant knows about.
   * If not consuming, the witnesses are the union of the signatories,
   * the actors and all informees of all the ancestors of this event this
   * participant knows about.
   * In both cases the witnesses are limited to the querying parties, or not
   * limited in case anyParty filters are used.
   * Note that the actors might not necessarily be observers
   * and thus stakeholders. This is the case when the controllers of a
   * choice are specified using "flexible controllers", using the
   * `choice ... controller` syntax, and said controllers are not
   * explicitly marked as observers.
   * Each element must be a valid PartyIdString (as described in `value.proto`).
   *
   * Required: must be non-empty
   */
  witnessParties: string[];
  /**
   * Specifies the upper boundary of the node ids of the events in the same transaction that appeared as a result of
   * this `ExercisedEvent`. This allows unambiguous identification of all the members of the subtree rooted at this
   * node. A full subtree can be constructed when all descendant nodes are present in the stream. If nodes are heavily
   * filtered, it is only possible to determine if a node is in a consequent subtree or not.
   */
  lastDescendantNodeId: number;
  /**
   * The result of exercising the choice.
   */
  exerciseResult?: JsonValue | undefined;
  /**
   * The package name of the contract.
   */
  packageName: string;
  /**
   * If the event is consuming, the interfaces implemented by the target template that have been
   * matched from the interface filter query.
   * Populated only in case interface filters with include_interface_view set.
   *
   * The identifier uses the package-id reference format.
   *
   * Optional: can be empty
   */
  implementedInterfaces?: string[] | null | undefined;
  /**
   * Whether this event would be part of respective ACS_DELTA shaped stream,
   * and should therefore considered when tracking contract activeness on the client-side.
   */
  acsDelta: boolean;
}

/**
 * Events in transactions can have two primary shapes:
 *
 * - ACS delta: events can be CreatedEvent or ArchivedEvent
 * - ledger effects: events can be CreatedEvent or ExercisedEvent
 *
 * In the update service the events are restricted to the events
 * visible for the parties specified in the transaction filter. Each
 * event message type below contains a `witness_parties` field which
 * indicates the subset of the requested parties that can see the event
 * in question.
 *
 * One event of a transaction: `{"CreatedEvent": {...}}`, `{"ArchivedEvent": {...}}` or `{"ExercisedEvent": {...}}` (the fields sit directly under the alternative's name), or an `UnknownVariant` from a newer server.
 */
export type Event =
  | { ArchivedEvent: ArchivedEvent }
  | { CreatedEvent: CreatedEvent }
  | { ExercisedEvent: ExercisedEvent }
  | UnknownVariant;

/**
 * Records that a contract has been unassigned, and it becomes unusable on the source synchronizer
 */
export interface UnassignedEvent {
  /**
   * The ID of the unassignment. This needs to be used as an input for a assign ReassignmentCommand.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  reassignmentId: string;
  /**
   * The ID of the reassigned contract.
   * Must be a valid LedgerString (as described in `value.proto`).
   */
  contractId: string;
  /**
   * The template of the reassigned contract.
   * The identifier uses the package-id reference format.
   */
  templateId: string;
  /**
   * The ID of the source synchronizer
   * Must be a valid synchronizer id
   */
  source: string;
  /**
   * The ID of the target synchronizer
   * Must be a valid synchronizer id
   */
  target: string;
  /**
   * Party on whose behalf the unassign command was executed.
   * Empty if the unassignment happened offline via the repair service.
   * Must be a valid PartyIdString (as described in `value.proto`).
   */
  submitter?: string | null | undefined;
  /**
   * Each corresponding assigned and unassigned event has the same reassignment_counter. This strictly increases
   * with each unassign command for the same contract. Creation of the contract corresponds to reassignment_counter
   * equals zero.
   */
  reassignmentCounter: number;
  /**
   * Assignment exclusivity
   * Before this time (measured on the target synchronizer), only the submitter of the unassignment can initiate the assignment
   * Defined for reassigning participants.
   */
  assignmentExclusivity?: string | null | undefined;
  /**
   * The parties that are notified of this event.
   *
   * Required: must be non-empty
   */
  witnessParties: string[];
  /**
   * The package name of the contract.
   */
  packageName: string;
  /**
   * The offset of origin.
   * Offsets are managed by the participant nodes.
   * Reassignments can thus NOT be assumed to have the same offsets on different participant nodes.
   * Must be a valid absolute offset (positive integer)
   */
  offset: number;
  /**
   * The position of this event in the originating reassignment.
   * Node IDs are not necessarily equal across participants,
   * as these may see different projections/parts of reassignments.
   * Must be valid node ID (non-negative integer)
   */
  nodeId: number;
}

export interface JsAssignmentEvent {
  source: string;
  target: string;
  reassignmentId: string;
  submitter: string;
  reassignmentCounter: number;
  createdEvent: CreatedEvent;
}

/**
 * One event of a reassignment: an assignment carries its fields directly, an unassignment under `"value"`; or an `UnknownVariant` from a newer server.
 */
export type JsReassignmentEvent =
  | { JsAssignmentEvent: JsAssignmentEvent }
  | { JsUnassignedEvent: { value: UnassignedEvent } }
  | UnknownVariant;

/**
 * The permission of a participant for a party (topology events).
 */
export type ParticipantPermission =
  | 'PARTICIPANT_PERMISSION_UNSPECIFIED'
  | 'PARTICIPANT_PERMISSION_SUBMISSION'
  | 'PARTICIPANT_PERMISSION_CONFIRMATION'
  | 'PARTICIPANT_PERMISSION_OBSERVATION';

export interface ParticipantAuthorizationAdded {
  partyId: string;
  participantId: string;
  participantPermission: ParticipantPermission;
}

export interface ParticipantAuthorizationChanged {
  partyId: string;
  participantId: string;
  participantPermission: ParticipantPermission;
}

/**
 * Not in the 3.4 spec.
 */
export interface ParticipantAuthorizationOnboarding {
  partyId: string;
  participantId: string;
  participantPermission: ParticipantPermission;
}

export interface ParticipantAuthorizationRevoked {
  partyId: string;
  participantId: string;
}

/**
 * The alternative of a topology event; each wraps its payload in `"value"`.
 *
 * `ParticipantAuthorizationOnboarding` is not in the 3.4 spec.
 */
export type TopologyEventEvent =
  | { Empty: Empty }
  | { ParticipantAuthorizationAdded: { value: ParticipantAuthorizationAdded } }
  | { ParticipantAuthorizationChanged: { value: ParticipantAuthorizationChanged } }
  | { ParticipantAuthorizationOnboarding: { value: ParticipantAuthorizationOnboarding } }
  | { ParticipantAuthorizationRevoked: { value: ParticipantAuthorizationRevoked } }
  | UnknownVariant;

export interface TopologyEvent {
  event?: TopologyEventEvent | null | undefined;
}
