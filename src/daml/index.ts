/**
 * `ledger-rx/daml`: Daml archives and typed templates. `readDar` decodes a DAR into a package model
 * (packages, modules, data types, templates, interfaces: see docs/daml-archives.md); the runtime helpers
 * below are what the code of `ledger-rx codegen` imports (see docs/typed-templates.md).
 *
 * @module ledger-rx/daml
 */
export { DarError, DarErrorCodes } from './dar-error.js';
export type { DarErrorCode } from './dar-error.js';
export { parseDarManifest } from './dar-manifest.js';
export type { DarManifest } from './dar-manifest.js';
export { decodeArchive, decodeArchivePayload } from './decode-archive.js';
export type { DecodedArchive } from './decode-archive.js';
export { readDar, readDarFile } from './read-dar.js';
export type { Dar, ReadDarOptions } from './read-dar.js';
export type {
  DamlBuiltinName,
  DamlChoice,
  DamlDataType,
  DamlDataTypeDefinition,
  DamlField,
  DamlInterface,
  DamlModule,
  DamlPackage,
  DamlTemplate,
  DamlType,
  TypeConRef,
} from './package-model.js';

// The runtime of generated code (`ledger-rx codegen`): value types, schema builders, templates, interfaces.
export { bool, contractId, date, enumeration, genMap, int64, lazy, list, numeric, optional, optionalLevel, party, record, text, textMap, timestamp, unit, variantOf } from './runtime/daml-schemas.js';
export type { Schema } from './runtime/daml-schemas.js';
export type { ContractId, DamlDate, GenMap, Int64, InterfaceType, Numeric, Optional, OptionalLevel, Party, TextMap, Timestamp, Unit } from './runtime/daml-values.js';
export { choice } from './runtime/choice.js';
export type { Choice, ChoiceArgument, ChoiceResult } from './runtime/choice.js';
export type { TypedCreateCommand, TypedExerciseCommand } from './runtime/daml-commands.js';
export { template } from './runtime/template.js';
export type { ChoiceMap, Template, TemplateDefinition } from './runtime/template.js';
export { damlInterface } from './runtime/interface.js';
export type { Interface, InterfaceDefinition } from './runtime/interface.js';

// Typed streams: update elements into the creates, archives and exercises of generated templates and choices.
export { DamlValueError } from './daml-value-error.js';
export type { DamlValueIssue } from './daml-value-error.js';
export { createdOf } from './operators/created-of.js';
export type { Created } from './operators/created-of.js';
export { archivedOf } from './operators/archived-of.js';
export type { Archived } from './operators/archived-of.js';
export { exercisedOf } from './operators/exercised-of.js';
export type { Exercised } from './operators/exercised-of.js';
export type { UpdateElementLike } from './operators/transaction-events.js';
export { liveContractsOf } from './operators/live-contracts-of.js';
export type { LiveContractsOfConfig, TypedContract, TypedLiveContracts } from './operators/live-contracts-of.js';
