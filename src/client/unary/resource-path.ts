/**
 * A path with one parameter, as a unary method of {@link createUnaryMethods} takes it: the method's first
 * argument is the parameter.
 */
export interface ResourcePath {
  /** The path's template (`/v2/users/{user-id}/rights`), which names the request's span. */
  readonly route: string;
  /**
   * The path of one resource: the parameter checked (throws `InvalidArgumentError` before anything is
   * sent) and percent-encoded.
   */
  readonly at: (parameter: string) => string;
}
