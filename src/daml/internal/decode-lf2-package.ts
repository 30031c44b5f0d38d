import type { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { darPeers } from './dar-peers.js';
import type {
  DamlBuiltinName,
  DamlChoice,
  DamlDataType,
  DamlDataTypeDefinition,
  DamlField,
  DamlInterface,
  DamlModule,
  DamlTemplate,
  DamlType,
  TypeConRef,
} from '../package-model.js';

/** The wire types this decoder checks (the values of @bufbuild/protobuf's `WireType`, which loads with the reader). */
const Wire = { Varint: 0 as WireType, LengthDelimited: 2 as WireType };

/**
 * Thrown by the decoder on any structural problem; `decodeArchive` turns it into a `DarError`. Plain class:
 * the decoder is internal and raises nothing users see directly.
 */
export class MalformedArchive extends Error {
  override name = 'MalformedArchive';
}

/** `BuiltinType` enum numbers of daml_lf2.proto (docs/daml-archives.md, "Types"); TextMap is 19 (1001 in older protos). */
const builtinNames: ReadonlyMap<number, DamlBuiltinName> = new Map<number, DamlBuiltinName>([
  [0, 'Unit'], [1, 'Bool'], [2, 'Int64'], [3, 'Date'], [4, 'Timestamp'], [5, 'Numeric'], [6, 'Party'], [7, 'Text'],
  [8, 'ContractId'], [9, 'Optional'], [10, 'List'], [11, 'GenMap'], [13, 'Any'], [14, 'AnyException'], [15, 'TypeRep'],
  [16, 'Arrow'], [17, 'Update'], [18, 'FailureCategory'], [19, 'TextMap'], [1001, 'TextMap'], [1002, 'BigNumeric'],
  [1003, 'RoundingMode'],
]);

/** Types nest only as deep as a declaration's source does (interning keeps it shallow); anything deeper is hostile. */
const maxTypeDepth = 512;

/**
 * A message: a range of the bytes one shared reader reads. Sub-messages are ranges too, so decoding allocates
 * no reader and no copy per message (docs/daml-archives.md, "Why a hand-written wire reader").
 */
interface Span {
  readonly r: BinaryReader;
  readonly start: number;
  readonly end: number;
}

const spanOf = (bytes: Uint8Array): Span => {
  const r = new (darPeers().wire.BinaryReader)(bytes);
  return { r, start: 0, end: r.len };
};

/** Reads the fields of one message in order; `visit` consumes the value of the fields it knows, the rest is skipped. */
function eachField(span: Span, visit: (no: number, wire: WireType, r: BinaryReader) => boolean): void {
  const r = span.r;
  r.pos = span.start;
  while (r.pos < span.end) {
    const [no, wire] = r.tag();
    if (!visit(no, wire, r)) r.skip(wire, no);
  }
  if (r.pos !== span.end) throw new MalformedArchive(`a field runs past the end of its message (at byte ${r.pos}, the message ends at ${span.end})`);
}

function expectWire(f: { no: number; wire: WireType }, wire: WireType): void {
  if (f.wire !== wire) throw new MalformedArchive(`field ${f.no}: wire type ${f.wire}, expected ${wire}`);
}

/** A length-delimited field as the span of its bytes; the reader moves past it. */
function bytesOf(no: number, wire: WireType, r: BinaryReader): Span {
  expectWire({ no, wire }, Wire.LengthDelimited);
  const length = r.uint32();
  const start = r.pos;
  const end = start + length;
  if (end > r.len) throw new MalformedArchive(`field ${no} claims ${length} bytes, past the end of the archive`);
  r.pos = end;
  return { r, start, end };
}

/** A length-delimited field's bytes (a view, not a copy). */
function rawBytesOf(no: number, wire: WireType, r: BinaryReader): Uint8Array {
  expectWire({ no, wire }, Wire.LengthDelimited);
  return r.bytes();
}

function stringOf(no: number, wire: WireType, r: BinaryReader): string {
  expectWire({ no, wire }, Wire.LengthDelimited);
  return r.string(true);
}

function int32Of(no: number, wire: WireType, r: BinaryReader): number {
  expectWire({ no, wire }, Wire.Varint);
  return r.int32();
}

/** Packed or unpacked repeated int32 (proto3 writes them packed). */
function pushInt32s(no: number, wire: WireType, r: BinaryReader, into: number[]): void {
  if (wire === Wire.Varint) {
    into.push(r.int32());
    return;
  }
  const packed = bytesOf(no, wire, r);
  r.pos = packed.start;
  while (r.pos < packed.end) into.push(r.int32());
  if (r.pos !== packed.end) throw new MalformedArchive(`packed field ${no} runs past its end`);
}

/** The top-level fields of `ArchivePayload` (daml_lf.proto). */
export interface ArchivePayloadFields {
  readonly minor: string;
  readonly patch: number;
  readonly lf1: boolean;
  readonly lf2: Uint8Array | undefined;
}

/** Decodes an `ArchivePayload`: the LF version and the encoded package, not the package itself. */
export function decodeArchivePayloadFields(payload: Uint8Array): ArchivePayloadFields {
  let minor = '';
  let patch = 0;
  let lf1 = false;
  let lf2: Uint8Array | undefined;
  eachField(spanOf(payload), (no, wire, r) => {
    switch (no) {
      case 2: bytesOf(no, wire, r); lf1 = true; return true;
      case 3: minor = stringOf(no, wire, r); return true;
      case 4: lf2 = rawBytesOf(no, wire, r); return true;
      case 5: patch = int32Of(no, wire, r); return true;
      default: return false;
    }
  });
  return { minor, patch, lf1, lf2 };
}

/** The top-level fields of `Archive` (daml_lf.proto): hash function, payload, hash. */
export interface ArchiveFields {
  readonly hashFunction: number;
  readonly payload: Uint8Array | undefined;
  readonly hash: string;
}

/** Decodes the envelope of a `.dalf`. */
export function decodeArchiveFields(bytes: Uint8Array): ArchiveFields {
  let hashFunction = 0;
  let payload: Uint8Array | undefined;
  let hash = '';
  eachField(spanOf(bytes), (no, wire, r) => {
    switch (no) {
      case 1: hashFunction = int32Of(no, wire, r); return true;
      case 3: payload = rawBytesOf(no, wire, r); return true;
      case 4: hash = stringOf(no, wire, r); return true;
      default: return false;
    }
  });
  return { hashFunction, payload, hash };
}

/** What `decodeLf2Package` gives: the metadata and the modules. */
export interface DecodedPackage {
  readonly name: string;
  readonly version: string;
  readonly upgradedPackageId: string | undefined;
  readonly modules: readonly DamlModule[];
}

/**
 * Decodes a `daml_lf_2.Package` into the package model, reading only the fields a type reader needs (see
 * docs/daml-archives.md, "What the reader decodes"): the interning tables first, then the modules' data types,
 * templates and interfaces. Expression fields are skipped as opaque bytes, so the depth of the Daml code never
 * matters; types recurse, bounded by `maxTypeDepth`.
 */
export function decodeLf2Package(bytes: Uint8Array, selfPackageId: string): DecodedPackage {
  const moduleBytes: Span[] = [];
  const typeBytes: Span[] = [];
  const dnameBytes: Span[] = [];
  const strings: string[] = [];
  let metadata: Span | undefined;
  eachField(spanOf(bytes), (no, wire, r) => {
    switch (no) {
      case 1: moduleBytes.push(bytesOf(no, wire, r)); return true;
      case 2: strings.push(stringOf(no, wire, r)); return true;
      case 3: dnameBytes.push(bytesOf(no, wire, r)); return true;
      case 4: metadata = bytesOf(no, wire, r); return true;
      case 5: typeBytes.push(bytesOf(no, wire, r)); return true;
      case 6: case 7: case 9: throw new MalformedArchive(`Package field ${no} (Daml-LF 2.2 and later) in a 2.1 package`);
      default: return false;
    }
  });

  const str = (i: number): string => {
    const s = strings[i];
    if (s === undefined) throw new MalformedArchive(`interned string ${i} out of range (${strings.length})`);
    return s;
  };
  const dnames = dnameBytes.map((b) => {
    const segments: number[] = [];
    eachField(b, (no, wire, r) => {
      if (no !== 1) return false;
      pushInt32s(no, wire, r, segments);
      return true;
    });
    if (segments.length === 0) throw new MalformedArchive('empty interned dotted name');
    return segments.map(str).join('.');
  });
  const dname = (i: number): string => {
    const s = dnames[i];
    if (s === undefined) throw new MalformedArchive(`interned dotted name ${i} out of range (${dnames.length})`);
    return s;
  };

  const internedTypes: DamlType[] = [];

  const packageIdOf = (bytes: Span): string => {
    let id: string | undefined;
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 1: bytesOf(no, wire, r); id = selfPackageId; return true;
        case 3: id = str(int32Of(no, wire, r)); return true;
        case 4: throw new MalformedArchive('package_import_id (Daml-LF 2.2 and later) in a 2.1 package');
        default: return false;
      }
    });
    if (id === undefined) throw new MalformedArchive('a package reference without a package');
    return id;
  };
  const moduleIdOf = (bytes: Span): { packageId: string; module: string } => {
    let packageId: string | undefined;
    let module = 0;
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 1: packageId = packageIdOf(bytesOf(no, wire, r)); return true;
        case 2: module = int32Of(no, wire, r); return true;
        default: return false;
      }
    });
    if (packageId === undefined) throw new MalformedArchive('a module reference without a package');
    return { packageId, module: dname(module) };
  };
  const tyconOf = (bytes: Span): TypeConRef => {
    let mod: { packageId: string; module: string } | undefined;
    let name = 0;
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 1: mod = moduleIdOf(bytesOf(no, wire, r)); return true;
        case 2: name = int32Of(no, wire, r); return true;
        default: return false;
      }
    });
    if (mod === undefined) throw new MalformedArchive('a type constructor reference without a module');
    return { packageId: mod.packageId, module: mod.module, name: dname(name) };
  };

  const typeOf = (bytes: Span, depth: number): DamlType => {
    if (depth > maxTypeDepth) throw new MalformedArchive(`a type nested deeper than ${maxTypeDepth}`);
    let result: DamlType | undefined;
    const argsOf = (body: Span, head: (no: number, wire: WireType, r: BinaryReader) => boolean): DamlType[] => {
      const args: DamlType[] = [];
      eachField(body, (no, wire, r) => {
        if (no === 2) {
          args.push(typeOf(bytesOf(no, wire, r), depth + 1));
          return true;
        }
        return head(no, wire, r);
      });
      return args;
    };
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 1: {
          let name = 0;
          const args = argsOf(bytesOf(no, wire, r), (n, w, rr) => (n === 3 ? ((name = int32Of(n, w, rr)), true) : false));
          result = { kind: 'var', name: str(name), args };
          return true;
        }
        case 2: {
          let tycon: TypeConRef | undefined;
          const args = argsOf(bytesOf(no, wire, r), (n, w, rr) => (n === 1 ? ((tycon = tyconOf(bytesOf(n, w, rr))), true) : false));
          if (tycon === undefined) throw new MalformedArchive('a type constructor application without its constructor');
          result = { kind: 'con', tycon, args };
          return true;
        }
        case 3: {
          let code = 0;
          const args = argsOf(bytesOf(no, wire, r), (n, w, rr) => (n === 1 ? ((code = int32Of(n, w, rr)), true) : false));
          const builtin = builtinNames.get(code);
          if (builtin === undefined) throw new MalformedArchive(`unknown builtin type ${code}`);
          result = { kind: 'builtin', builtin, args };
          return true;
        }
        case 4: bytesOf(no, wire, r); result = { kind: 'unserializable', what: 'forall' }; return true;
        case 5: bytesOf(no, wire, r); result = { kind: 'unserializable', what: 'struct' }; return true;
        case 6: {
          expectWire({ no, wire }, Wire.Varint);
          const value = Number(r.sint64());
          if (!Number.isInteger(value) || value < 0 || value > 37) throw new MalformedArchive(`a Numeric scale of ${value}`);
          result = { kind: 'nat', value };
          return true;
        }
        case 7: bytesOf(no, wire, r); result = { kind: 'unserializable', what: 'synonym' }; return true;
        case 8: {
          const index = int32Of(no, wire, r);
          const t = internedTypes[index];
          if (t === undefined) throw new MalformedArchive(`interned type ${index} out of range (${internedTypes.length} decoded so far)`);
          result = t;
          return true;
        }
        case 9: bytesOf(no, wire, r); result = { kind: 'unserializable', what: 'application' }; return true;
        default: return false;
      }
    });
    if (result === undefined) throw new MalformedArchive('an empty type');
    return result;
  };
  // An interned type may only refer to entries at smaller indices, so the table decodes front to back.
  for (const b of typeBytes) internedTypes.push(typeOf(b, 0));

  const fieldWithType = (bytes: Span): DamlField => {
    let name = 0;
    let type: DamlType | undefined;
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 2: type = typeOf(bytesOf(no, wire, r), 0); return true;
        case 3: name = int32Of(no, wire, r); return true;
        default: return false;
      }
    });
    if (type === undefined) throw new MalformedArchive('a field without a type');
    return { name: str(name), type };
  };

  const dataTypeOf = (bytes: Span): DamlDataType => {
    let name = 0;
    const params: string[] = [];
    let serializable = false;
    let definition: DamlDataTypeDefinition | undefined;
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 2: name = int32Of(no, wire, r); return true;
        case 3: {
          let v = 0;
          eachField(bytesOf(no, wire, r), (n, w, rr) => (n === 3 ? ((v = int32Of(n, w, rr)), true) : false));
          params.push(str(v));
          return true;
        }
        case 4: expectWire({ no, wire }, Wire.Varint); serializable = r.bool(); return true;
        case 5: case 6: {
          const fields: DamlField[] = [];
          eachField(bytesOf(no, wire, r), (n, w, rr) => (n === 1 ? (fields.push(fieldWithType(bytesOf(n, w, rr))), true) : false));
          definition = no === 5 ? { kind: 'record', fields } : { kind: 'variant', constructors: fields };
          return true;
        }
        case 7: {
          const codes: number[] = [];
          eachField(bytesOf(no, wire, r), (n, w, rr) => (n === 2 ? (pushInt32s(n, w, rr, codes), true) : false));
          definition = { kind: 'enum', constructors: codes.map(str) };
          return true;
        }
        case 8: bytesOf(no, wire, r); definition = { kind: 'interface' }; return true;
        default: return false;
      }
    });
    if (definition === undefined) throw new MalformedArchive('a data type without a definition');
    return { name: dname(name), params, serializable, definition };
  };

  const choiceOf = (bytes: Span): DamlChoice => {
    let name = 0;
    let consuming = false;
    let argument: DamlType | undefined;
    let result: DamlType | undefined;
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 2: name = int32Of(no, wire, r); return true;
        case 3: expectWire({ no, wire }, Wire.Varint); consuming = r.bool(); return true;
        case 6: argument = fieldWithType(bytesOf(no, wire, r)).type; return true;
        case 8: result = typeOf(bytesOf(no, wire, r), 0); return true;
        default: return false;
      }
    });
    if (argument === undefined || result === undefined) throw new MalformedArchive('a choice without its argument or result type');
    return { name: str(name), consuming, argument, result };
  };

  const templateOf = (bytes: Span, module: string): DamlTemplate => {
    let nameIndex = 0;
    let key: DamlType | undefined;
    const choices: DamlChoice[] = [];
    const implementsRefs: TypeConRef[] = [];
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 1: nameIndex = int32Of(no, wire, r); return true;
        case 6: choices.push(choiceOf(bytesOf(no, wire, r))); return true;
        case 9:
          eachField(bytesOf(no, wire, r), (n, w, rr) => (n === 1 ? ((key = typeOf(bytesOf(n, w, rr), 0)), true) : false));
          return true;
        case 10: {
          let ref: TypeConRef | undefined;
          eachField(bytesOf(no, wire, r), (n, w, rr) => (n === 1 ? ((ref = tyconOf(bytesOf(n, w, rr))), true) : false));
          if (ref === undefined) throw new MalformedArchive('an interface instance without its interface');
          implementsRefs.push(ref);
          return true;
        }
        default: return false;
      }
    });
    const name = dname(nameIndex);
    const payload: DamlType = { kind: 'con', tycon: { packageId: selfPackageId, module, name }, args: [] };
    return { name, payload, key, choices, implements: implementsRefs };
  };

  const interfaceOf = (bytes: Span): DamlInterface => {
    let name = 0;
    let view: DamlType | undefined;
    const choices: DamlChoice[] = [];
    const requires: TypeConRef[] = [];
    eachField(bytes, (no, wire, r) => {
      switch (no) {
        case 2: name = int32Of(no, wire, r); return true;
        case 5: choices.push(choiceOf(bytesOf(no, wire, r))); return true;
        case 6: view = typeOf(bytesOf(no, wire, r), 0); return true;
        case 7: requires.push(tyconOf(bytesOf(no, wire, r))); return true;
        default: return false;
      }
    });
    if (view === undefined) throw new MalformedArchive('an interface without a view');
    return { name: dname(name), view, choices, requires };
  };

  const modules = moduleBytes.map((b): DamlModule => {
    let name = 0;
    const dataBytes: Span[] = [];
    const templateBytes: Span[] = [];
    const interfaceBytes: Span[] = [];
    eachField(b, (no, wire, r) => {
      switch (no) {
        case 1: name = int32Of(no, wire, r); return true;
        case 4: dataBytes.push(bytesOf(no, wire, r)); return true;
        case 6: templateBytes.push(bytesOf(no, wire, r)); return true;
        case 8: interfaceBytes.push(bytesOf(no, wire, r)); return true;
        default: return false;
      }
    });
    const moduleName = dname(name);
    return {
      name: moduleName,
      dataTypes: dataBytes.map(dataTypeOf),
      templates: templateBytes.map((t) => templateOf(t, moduleName)),
      interfaces: interfaceBytes.map(interfaceOf),
    };
  });

  if (metadata === undefined) throw new MalformedArchive('no package metadata (required in Daml-LF 2)');
  let metaName = 0;
  let metaVersion = 0;
  let upgradedPackageId: string | undefined;
  eachField(metadata, (no, wire, r) => {
    switch (no) {
      case 1: metaName = int32Of(no, wire, r); return true;
      case 2: metaVersion = int32Of(no, wire, r); return true;
      case 3: {
        let up = 0;
        eachField(bytesOf(no, wire, r), (n, w, rr) => (n === 1 ? ((up = int32Of(n, w, rr)), true) : false));
        upgradedPackageId = str(up);
        return true;
      }
      default: return false;
    }
  });
  return { name: str(metaName), version: str(metaVersion), upgradedPackageId, modules };
}
