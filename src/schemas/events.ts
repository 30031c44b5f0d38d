import { z } from 'zod';
import { Empty, JsStatus } from './common.js';
import { DamlValue, Int32, Int64, Offset, OptionalDamlValue, Timestamp } from './primitives.js';
import { variant, wrapped } from './variant.js';

/** `JsInterfaceView`: an interface view computed for a created contract. */
export const JsInterfaceView = z.looseObject({
  interfaceId: z.string(),
  viewStatus: JsStatus,
  viewValue: OptionalDamlValue,
  implementationPackageId: z.string().nullish(),
});
export type JsInterfaceView = z.output<typeof JsInterfaceView>;

/** `CreatedEvent`: a contract was created. `templateId` is in package-id form. */
export const CreatedEvent = z.looseObject({
  offset: Offset,
  nodeId: Int32,
  contractId: z.string(),
  templateId: z.string(),
  contractKey: OptionalDamlValue,
  contractKeyHash: z.string().nullish(),
  createArgument: DamlValue,
  createdEventBlob: z.string().nullish(),
  interfaceViews: z.array(JsInterfaceView).nullish(),
  witnessParties: z.array(z.string()),
  signatories: z.array(z.string()),
  observers: z.array(z.string()).nullish(),
  createdAt: Timestamp,
  packageName: z.string(),
  representativePackageId: z.string(),
  acsDelta: z.boolean(),
});
export type CreatedEvent = z.output<typeof CreatedEvent>;

/** `ArchivedEvent`: a contract was archived (ACS-delta shape). */
export const ArchivedEvent = z.looseObject({
  offset: Offset,
  nodeId: Int32,
  contractId: z.string(),
  templateId: z.string(),
  witnessParties: z.array(z.string()),
  packageName: z.string(),
  implementedInterfaces: z.array(z.string()).nullish(),
});
export type ArchivedEvent = z.output<typeof ArchivedEvent>;

/** `ExercisedEvent`: a choice was exercised (ledger-effects shape). */
export const ExercisedEvent = z.looseObject({
  offset: Offset,
  nodeId: Int32,
  contractId: z.string(),
  templateId: z.string(),
  interfaceId: z.string().nullish(),
  choice: z.string(),
  choiceArgument: DamlValue,
  actingParties: z.array(z.string()),
  consuming: z.boolean(),
  witnessParties: z.array(z.string()),
  lastDescendantNodeId: Int32,
  exerciseResult: OptionalDamlValue,
  packageName: z.string(),
  implementedInterfaces: z.array(z.string()).nullish(),
  acsDelta: z.boolean(),
});
export type ExercisedEvent = z.output<typeof ExercisedEvent>;

/** `Event`: the fields sit directly under the alternative's name (no `"value"`). */
export const Event = variant('Event', { ArchivedEvent, CreatedEvent, ExercisedEvent }, { open: true });
export type Event = z.output<typeof Event>;

/** `UnassignedEvent`: a contract left a synchronizer. */
export const UnassignedEvent = z.looseObject({
  reassignmentId: z.string(),
  contractId: z.string(),
  templateId: z.string(),
  source: z.string(),
  target: z.string(),
  submitter: z.string().nullish(),
  reassignmentCounter: Int64,
  assignmentExclusivity: Timestamp.nullish(),
  witnessParties: z.array(z.string()),
  packageName: z.string(),
  offset: Offset,
  nodeId: Int32,
});
export type UnassignedEvent = z.output<typeof UnassignedEvent>;

/** `JsAssignmentEvent`: a contract arrived on a synchronizer. */
export const JsAssignmentEvent = z.looseObject({
  source: z.string(),
  target: z.string(),
  reassignmentId: z.string(),
  submitter: z.string(),
  reassignmentCounter: Int64,
  createdEvent: CreatedEvent,
});
export type JsAssignmentEvent = z.output<typeof JsAssignmentEvent>;

/** The alternatives of `JsReassignmentEvent`: assignments carry fields directly, unassignments a `"value"`. */
export const reassignmentEventCases = {
  JsAssignmentEvent,
  JsUnassignedEvent: wrapped(UnassignedEvent),
};

/** `JsReassignmentEvent`. */
export const JsReassignmentEvent = variant('JsReassignmentEvent', reassignmentEventCases, { open: true });
export type JsReassignmentEvent = z.output<typeof JsReassignmentEvent>;

/** The participant permission enum of topology events. */
export const ParticipantPermission = z.enum([
  'PARTICIPANT_PERMISSION_UNSPECIFIED',
  'PARTICIPANT_PERMISSION_SUBMISSION',
  'PARTICIPANT_PERMISSION_CONFIRMATION',
  'PARTICIPANT_PERMISSION_OBSERVATION',
]);
export type ParticipantPermission = z.output<typeof ParticipantPermission>;

/** `ParticipantAuthorizationAdded` (payload). */
export const ParticipantAuthorizationAdded = z.looseObject({
  partyId: z.string(),
  participantId: z.string(),
  participantPermission: ParticipantPermission,
});
/** `ParticipantAuthorizationChanged` (payload). */
export const ParticipantAuthorizationChanged = ParticipantAuthorizationAdded.clone();
/** `ParticipantAuthorizationOnboarding` (payload). */
export const ParticipantAuthorizationOnboarding = ParticipantAuthorizationAdded.clone();
/** `ParticipantAuthorizationRevoked` (payload). */
export const ParticipantAuthorizationRevoked = z.looseObject({
  partyId: z.string(),
  participantId: z.string(),
});

/** The alternatives of `TopologyEventEvent`; every one wraps its payload in `"value"`. */
export const topologyEventCases = {
  Empty,
  ParticipantAuthorizationAdded: wrapped(ParticipantAuthorizationAdded),
  ParticipantAuthorizationChanged: wrapped(ParticipantAuthorizationChanged),
  ParticipantAuthorizationOnboarding: wrapped(ParticipantAuthorizationOnboarding),
  ParticipantAuthorizationRevoked: wrapped(ParticipantAuthorizationRevoked),
};

/** `TopologyEventEvent`. */
export const TopologyEventEvent = variant('TopologyEventEvent', topologyEventCases, { open: true });
export type TopologyEventEvent = z.output<typeof TopologyEventEvent>;

/** `TopologyEvent`. */
export const TopologyEvent = z.looseObject({ event: TopologyEventEvent.nullish() });
export type TopologyEvent = z.output<typeof TopologyEvent>;
