/** What {@link colorSupport} looks at: the stream the view is written to, and the environment. */
export interface ColorFacts {
  /** The stream is a terminal. */
  readonly isTTY: boolean;
  /**
   * The terminal's own answer (Node's `tty.WriteStream.hasColors(env)`, which reads `TERM`, `COLORTERM`,
   * `NO_COLOR`, `NODE_DISABLE_COLORS` and `FORCE_COLOR`); absent: assume it has colours.
   */
  readonly hasColors?: boolean | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether the human view is coloured (a pure function), by the common conventions:
 * - `FORCE_COLOR` set to anything but `0` or `false` (an empty value included) forces colours, also into a
 *   pipe or a file; `FORCE_COLOR=0`/`false` turns them off;
 * - else `NO_COLOR` set to a non-empty value turns them off (no-color.org);
 * - else only a terminal gets colours, and only one that is not `TERM=dumb` and says it has them.
 */
export function colorSupport(facts: ColorFacts): boolean {
  const force = facts.env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  const noColor = facts.env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  if (!facts.isTTY) return false;
  if (facts.env['TERM'] === 'dumb') return false;
  return facts.hasColors ?? true;
}
