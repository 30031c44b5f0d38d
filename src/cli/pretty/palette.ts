import picocolors from 'picocolors';
import type { StyleName } from './style-name.js';

/** Colours `text` in the style of its role; with colours off, returns `text` unchanged. */
export type Palette = (style: StyleName | undefined, text: string) => string;

/**
 * The palette of the human view, with picocolors' escape codes when `enabled` (see `colorSupport`), else
 * plain text. Offsets, ids, times and parties in calm colours; created green, archived red, exercised
 * yellow; templates bold; separators and muted text dim.
 */
export function createPalette(enabled: boolean): Palette {
  const c = picocolors.createColors(enabled);
  const styles: Readonly<Record<StyleName, (s: string) => string>> = {
    offset: c.cyan,
    time: c.dim,
    kind: c.magenta,
    id: c.blue,
    created: c.green,
    archived: c.red,
    exercised: c.yellow,
    template: c.bold,
    party: c.cyan,
    value: (s) => s,
    muted: c.dim,
    separator: c.dim,
    info: c.green,
    warn: c.yellow,
    error: (s) => c.bold(c.red(s)),
    debug: c.gray,
  };
  return (style, text) => (!enabled || style === undefined || text === '' ? text : styles[style](text));
}
