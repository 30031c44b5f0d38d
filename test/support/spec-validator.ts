import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { loadOpenapi, refName, type OasSchema } from './openapi.js';
import { asyncapiPath, type SpecVersion } from './shared-dir.js';

/**
 * Validates response bodies against ../shared/canton/openapi.yaml with ajv, or, given a `version`, against
 * the spec of that release line (openapi-3.4.yaml, -3.5.yaml, -3.6.yaml). Callers ask `specAvailable()` /
 * `asyncSpecAvailable()` (test/support/shared-dir.ts) first: without ../shared that is an error under CI and
 * a skip with its reason on stderr elsewhere; the functions here throw when the spec is absent.
 *
 * Two adaptations make the check stricter than the spec text, in the direction of the real server
 * (docs/server-behavior.md#json-encoding): every declared property must be present (the server never omits a field), an
 * optional property may be `null` (that is how the server encodes an absent optional), and no undeclared
 * property may appear (additionalProperties: false), so the sandbox cannot invent fields.
 */
function adapt(node: unknown, prefix = 'oas'): unknown {
  if (Array.isArray(node)) return node.map((n) => adapt(n, prefix));
  if (!node || typeof node !== 'object') return node;
  const s = node as OasSchema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string') out[k] = `${prefix}${v}`;
    else if (k === 'description' || k === 'title' || k === 'format' || k === 'deprecated') continue;
    else out[k] = adapt(v, prefix);
  }
  if (s.properties) {
    const required = new Set(s.required ?? []);
    const props: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(out['properties'] as Record<string, unknown>)) {
      props[name] = required.has(name) ? prop : { anyOf: [prop, { type: 'null' }] };
    }
    out['properties'] = props;
    out['required'] = Object.keys(s.properties);
    if (out['additionalProperties'] === undefined) out['additionalProperties'] = false;
  }
  return out;
}

/**
 * The one place where the specs and the server disagree and the sandbox follows the server:
 * `ProtoAny.valueDecoded` (in completion statuses) is declared a string, but the JSON API prints the
 * decoded `ErrorInfo`/`RequestInfo` message as an object (JsSchema.scala:518-536 at e5f40da5e). The check
 * accepts any JSON value there; everything else stays as strict as described above.
 */
function withServerDeviations(schemas: Record<string, OasSchema>): Record<string, OasSchema> {
  const protoAny = schemas['ProtoAny'];
  if (!protoAny?.properties?.['valueDecoded']) return schemas;
  return { ...schemas, ProtoAny: { ...protoAny, properties: { ...protoAny.properties, valueDecoded: {} } } };
}

/** One compiler per spec (openapi.yaml: `undefined`), and its compiled validators. */
const compilers = new Map<SpecVersion | undefined, { ajv: Ajv; cache: Map<string, ValidateFunction> }>();

function compiler(version: SpecVersion | undefined): { ajv: Ajv; cache: Map<string, ValidateFunction> } {
  let entry = compilers.get(version);
  if (!entry) {
    const doc = loadOpenapi(version);
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'oas', components: { schemas: adapt(withServerDeviations(doc.components.schemas)) } });
    if (asyncapiPath && version === undefined) {
      const async = parse(readFileSync(asyncapiPath, 'utf8')) as { components: { schemas: Record<string, OasSchema> } };
      ajv.addSchema({ $id: 'aas', components: { schemas: adapt(withServerDeviations(async.components.schemas), 'aas') } });
    }
    entry = { ajv, cache: new Map() };
    compilers.set(version, entry);
  }
  return entry;
}

function pathMatches(template: string, path: string): boolean {
  const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return re.test(path);
}

/** The JSON schema the spec declares for `method path` answering `status`, or `undefined` for text bodies. */
function responseSchema(method: string, path: string, status: number, version: SpecVersion | undefined): unknown {
  const doc = loadOpenapi(version);
  const candidates = Object.keys(doc.paths).filter((t) => pathMatches(t, path));
  // Prefer the literal path over a templated one (`/v2/package-vetting/list` vs `{...}`).
  candidates.sort((a, b) => (a.includes('{') ? 1 : 0) - (b.includes('{') ? 1 : 0));
  const template = candidates[0];
  if (!template) throw new Error(`no path in openapi${version === undefined ? '' : `-${version}`}.yaml matches ${path}`);
  const op = doc.paths[template]?.[method.toLowerCase()] as { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } | undefined;
  if (!op?.responses) throw new Error(`openapi${version === undefined ? '' : `-${version}`}.yaml has no ${method} ${template}`);
  // A JSON body is checked against the status's JSON schema, else against `default` (JsCantonError): the
  // spec's '400' entry documents only the text/plain decode failures, while Canton errors with status 400
  // are JSON bodies described by `default`.
  const json = op.responses[String(status)]?.content?.['application/json'] ?? op.responses['default']?.content?.['application/json'];
  return json ? json.schema : undefined;
}

/**
 * Validates a response body against the spec (openapi.yaml, or the release line `version`'s); returns the
 * list of problems (empty when valid). Throws when the spec declares a text body for that status, or no
 * such operation.
 */
export function specProblems(method: string, path: string, status: number, body: unknown, version?: SpecVersion): string[] {
  const schema = responseSchema(method, path, status, version);
  if (schema === undefined) throw new Error(`the spec declares no JSON body for ${method} ${path} ${status}`);
  const key = JSON.stringify(schema);
  const { ajv, cache } = compiler(version);
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(adapt(schema) as object);
    cache.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** True when the spec says `method path` may answer `status` with text/plain (decode failures). */
export function specDeclaresText(method: string, path: string, status: number, version?: SpecVersion): boolean {
  const doc = loadOpenapi(version);
  const template = Object.keys(doc.paths).find((t) => pathMatches(t, path));
  const op = template ? (doc.paths[template]?.[method.toLowerCase()] as { responses?: Record<string, { content?: Record<string, unknown> }> } | undefined) : undefined;
  return Boolean(op?.responses?.[String(status)]?.content?.['text/plain']);
}

/** The AsyncAPI document's channels, as far as the frame check needs them. */
interface AsyncChannels {
  channels: Record<string, { subscribe?: { message?: { $ref?: string } }; publish?: { message?: { $ref?: string } } }>;
  components: { messages: Record<string, { payload?: { $ref?: string } }> };
}

let asyncDoc: AsyncChannels | undefined;

/**
 * The schema of an AsyncAPI payload component in a release line's OpenAPI spec: `Either_JsCantonError_X`
 * (an error frame or an element) is either `JsCantonError` or `X`; any other name is the component itself.
 */
function versionedPayload(name: string): object {
  const either = /^Either_JsCantonError_(.+)$/.exec(name);
  if (!either) return { $ref: `oas#/components/schemas/${name}` };
  return { anyOf: [{ $ref: 'oas#/components/schemas/JsCantonError' }, { $ref: `oas#/components/schemas/${either[1] as string}` }] };
}

/**
 * Validates one WebSocket frame against ../shared/canton/asyncapi.yaml: the payload of the `subscribe`
 * message (what the server sends) or the `publish` message (what the client sends) of `channel`, with the
 * same strictness as {@link specProblems} (every declared field present, `null` for an absent optional, no
 * undeclared field). Returns the problems (empty when valid); throws when the channel is not in the spec.
 *
 * With a `version`, the payload's component (named in asyncapi.yaml, which exists for one spec snapshot
 * only) is taken from that release line's OpenAPI spec instead: the WebSocket payloads are the same
 * components as the HTTP answers (`JsGetUpdatesResponse`, `CompletionStreamResponse`, ...), so a frame is
 * checked against the fields of the line it was served for.
 */
export function frameProblems(channel: string, frame: unknown, direction: 'subscribe' | 'publish' = 'subscribe', version?: SpecVersion): string[] {
  if (!asyncapiPath) throw new Error('asyncapi.yaml is not available');
  asyncDoc ??= parse(readFileSync(asyncapiPath, 'utf8')) as AsyncChannels;
  const messageRef = asyncDoc.channels[channel]?.[direction]?.message?.$ref;
  if (!messageRef) throw new Error(`asyncapi.yaml has no ${direction} message on ${channel}`);
  const payloadRef = asyncDoc.components.messages[messageRef.slice(messageRef.lastIndexOf('/') + 1)]?.payload?.$ref;
  if (!payloadRef) throw new Error(`the ${direction} message of ${channel} has no payload schema`);
  const key = version === undefined ? `aas${payloadRef}` : `oas${version}${payloadRef}`;
  const { ajv, cache } = compiler(version);
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(version === undefined ? { $ref: key } : versionedPayload(refName(payloadRef)));
    cache.set(key, validate);
  }
  if (validate(frame)) return [];
  return (validate.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
