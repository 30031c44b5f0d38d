import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { Empty, JsStatus } from './common.js';
import { DamlValue, Int32, Int64, Offset, OptionalDamlValue, Timestamp } from './primitives.js';
import { variant, wrapped } from './variant.js';

/** `JsInterfaceView`: an interface view computed for a created contract. */
export const JsInterfaceView = lazySchema(() => z.looseObject({
  interfaceId: z.string(),
  viewStatus: built(JsStatus),
  viewValue: built(OptionalDamlValue),
  implementationPackageId: z.string().nullish(),
}));
export type JsInterfaceView = z.output<typeof JsInterfaceView>;

/** `CreatedEvent`: a contract was created. `templateId` is in package-id form. */
export const CreatedEvent = lazySchema(() => z.looseObject({
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
export type CreatedEvent = z.output<typeof CreatedEvent>;

/** `ArchivedEvent`: a contract was archived (ACS-delta shape). */
export const ArchivedEvent = lazySchema(() => z.looseObject({
  offset: built(Offset),
  nodeId: built(Int32),
  contractId: z.string(),
  templateId: z.string(),
  witnessParties: z.array(z.string()),
  packageName: z.string(),
  implementedInterfaces: z.array(z.string()).nullish(),
}));
export type ArchivedEvent = z.output<typeof ArchivedEvent>;

/** `ExercisedEvent`: a choice was exercised (ledger-effects shape). */
export const ExercisedEvent = lazySchema(() => z.looseObject({
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
export type ExercisedEvent = z.output<typeof ExercisedEvent>;

/** The alternatives of `Event`; the fields sit directly under the alternative's name (no `"value"`). */
export const eventCases = { ArchivedEvent, CreatedEvent, ExercisedEvent };

/** `Event`. */
export const Event = lazySchema(() => variant('Event', eventCases, { open: true }));
export type Event = z.output<typeof Event>;

/** `UnassignedEvent`: a contract left a synchronizer. */
export const UnassignedEvent = lazySchema(() => z.looseObject({
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
export type UnassignedEvent = z.output<typeof UnassignedEvent>;

/** `JsAssignmentEvent`: a contract arrived on a synchronizer. */
export const JsAssignmentEvent = lazySchema(() => z.looseObject({
  source: z.string(),
  target: z.string(),
  reassignmentId: z.string(),
  submitter: z.string(),
  reassignmentCounter: built(Int64),
  createdEvent: built(CreatedEvent),
}));
export type JsAssignmentEvent = z.output<typeof JsAssignmentEvent>;

/** The alternatives of `JsReassignmentEvent`: assignments carry fields directly, unassignments a `"value"`. */
export const reassignmentEventCases = {
  JsAssignmentEvent,
  JsUnassignedEvent: lazySchema(() => wrapped(built(UnassignedEvent))),
};

/** `JsReassignmentEvent`. */
export const JsReassignmentEvent = lazySchema(() => variant('JsReassignmentEvent', reassignmentEventCases, { open: true }));
export type JsReassignmentEvent = z.output<typeof JsReassignmentEvent>;

/** The participant permission enum of topology events. */
export const ParticipantPermission = lazySchema(() => z.enum([
  'PARTICIPANT_PERMISSION_UNSPECIFIED',
  'PARTICIPANT_PERMISSION_SUBMISSION',
  'PARTICIPANT_PERMISSION_CONFIRMATION',
  'PARTICIPANT_PERMISSION_OBSERVATION',
]));
export type ParticipantPermission = z.output<typeof ParticipantPermission>;

/** `ParticipantAuthorizationAdded` (payload). */
export const ParticipantAuthorizationAdded = lazySchema(() => z.looseObject({
  partyId: z.string(),
  participantId: z.string(),
  participantPermission: built(ParticipantPermission),
}));
/** `ParticipantAuthorizationChanged` (payload). */
export const ParticipantAuthorizationChanged = lazySchema(() => built(ParticipantAuthorizationAdded).clone());
/** `ParticipantAuthorizationOnboarding` (payload). */
export const ParticipantAuthorizationOnboarding = lazySchema(() => built(ParticipantAuthorizationAdded).clone());
/** `ParticipantAuthorizationRevoked` (payload). */
export const ParticipantAuthorizationRevoked = lazySchema(() => z.looseObject({
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
export const TopologyEventEvent = lazySchema(() => variant('TopologyEventEvent', topologyEventCases, { open: true }));
export type TopologyEventEvent = z.output<typeof TopologyEventEvent>;

/** `TopologyEvent`. */
export const TopologyEvent = lazySchema(() => z.looseObject({ event: built(TopologyEventEvent).nullish() }));
export type TopologyEvent = z.output<typeof TopologyEvent>;
