/**
 * The roles a piece of the human view plays; a {@link Palette} maps each to a colour, so every command
 * that renders rows (`tail`, and later `acs`, `completions`) colours the same things alike.
 */
export type StyleName =
  | 'offset'
  | 'time'
  | 'kind'
  | 'id'
  | 'created'
  | 'archived'
  | 'exercised'
  | 'template'
  | 'party'
  | 'value'
  | 'muted'
  | 'separator'
  | 'info'
  | 'warn'
  | 'error'
  | 'debug';
