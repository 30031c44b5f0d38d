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
