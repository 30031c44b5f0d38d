import type { z } from 'zod';
import type { CallOptions } from '../call-options.js';
import type { HttpCall, HttpTransport } from '../http/create-http-transport.js';
import { createResponseParser } from '../http/create-response-parser.js';
import type { ResourcePath } from './resource-path.js';
import { validateCallOptions } from '../validation/index.js';

/** Where a method sends its call: a fixed path, a path chosen by the (checked) options, or a resource. */
type Path<O> = string | ((options: O) => string) | ResourcePath;

/** The builders of {@link createUnaryMethods}; each returns one client method. */
export interface UnaryMethods {
  /** Sends one call and parses its 2xx body with `schema` (or not, when responses are not validated). */
  send<S extends z.ZodType>(call: HttpCall, schema: S): Promise<z.output<S>>;
  /** `GET path`: `(options?)`. */
  get<S extends z.ZodType>(path: string, response: S): (options?: CallOptions) => Promise<z.output<S>>;
  /** `GET /…/{id}`: `(id, options?)`. */
  get<S extends z.ZodType>(path: ResourcePath, response: S): (id: string, options?: CallOptions) => Promise<z.output<S>>;
  /** `POST path` with the request as its body: `(request, options?)`. */
  post<R, S extends z.ZodType, O extends CallOptions = CallOptions>(
    path: string | ((options: O) => string),
    validate: (request: R) => unknown,
    response: S,
    checkOptions?: (options: unknown) => O,
  ): (request: R, options?: O) => Promise<z.output<S>>;
  /** `POST /…/{id}` with the request as its body: `(id, request, options?)`. */
  post<R, S extends z.ZodType>(path: ResourcePath, validate: (id: string, request: R) => unknown, response: S): (id: string, request: R, options?: CallOptions) => Promise<z.output<S>>;
  /** `PATCH /…/{id}` with the request as its body: `(id, request, options?)`. */
  patch<R, S extends z.ZodType>(path: ResourcePath, validate: (id: string, request: R) => unknown, response: S): (id: string, request: R, options?: CallOptions) => Promise<z.output<S>>;
}

/**
 * The factory of the client's unary methods (one request, one JSON answer), so that each endpoint is
 * declared in one line: its HTTP method, its path, the check of its request and its response schema.
 *
 * Every method it builds is `async` and, in this order: checks the options argument (the last one;
 * `validateCallOptions` unless the endpoint brings its own check), then the request (`validate`, given the
 * path's parameter first when the path is a {@link ResourcePath}), then the path's parameter (`at`); any
 * violation rejects with `InvalidArgumentError` and nothing is sent. Then it sends the call through the
 * HTTP transport with the caller's `signal` (the span is named after the route), the request as the body
 * of a `POST`/`PATCH`, and resolves with the 2xx body parsed by the response schema (`validateResponses`
 * false: unchecked). It rejects as {@link HttpTransport.call} does: `LedgerApiError`, `TransportError`,
 * `AbortError`, `ProtocolError`. Nothing is retried here (the transport's 401 refresh aside).
 *
 * @param http - the client's HTTP transport.
 * @param validateResponses - whether 2xx bodies are checked against their schema.
 */
export function createUnaryMethods(http: HttpTransport, validateResponses: boolean): UnaryMethods {
  function send<S extends z.ZodType>(call: HttpCall, schema: S): Promise<z.output<S>> {
    return http.call(call, createResponseParser(schema, validateResponses, `${call.method} ${call.path}`));
  }

  function method(
    verb: HttpCall['method'],
    path: Path<CallOptions>,
    validate: ((...args: unknown[]) => unknown) | undefined,
    response: z.ZodType,
    checkOptions: (options: unknown) => CallOptions = validateCallOptions,
  ) {
    const arity = (typeof path === 'object' ? 1 : 0) + (validate === undefined ? 0 : 1);
    return async (...args: unknown[]): Promise<unknown> => {
      const options = checkOptions(args[arity]);
      validate?.(...args.slice(0, arity));
      const where =
        typeof path === 'string' ? { path }
        : typeof path === 'function' ? { path: path(options) }
        : { path: path.at(args[0] as string), route: path.route };
      const body = validate === undefined ? {} : { body: args[arity - 1] };
      return send({ method: verb, ...where, ...body, signal: options.signal }, response);
    };
  }

  // The overloads of UnaryMethods type each method; the one implementation below serves them all.
  const builders = {
    send,
    get: (path: Path<CallOptions>, response: z.ZodType) => method('GET', path, undefined, response),
    post: (path: Path<CallOptions>, validate: (...args: never[]) => unknown, response: z.ZodType, checkOptions?: (options: unknown) => CallOptions) =>
      method('POST', path, validate as (...args: unknown[]) => unknown, response, checkOptions),
    patch: (path: ResourcePath, validate: (...args: never[]) => unknown, response: z.ZodType) =>
      method('PATCH', path, validate as (...args: unknown[]) => unknown, response),
  };
  return builders as UnaryMethods;
}
