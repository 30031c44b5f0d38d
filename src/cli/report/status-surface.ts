/**
 * A line drawn at the bottom of a terminal that other output must not mix with (the progress line): erase
 * it before writing to the same terminal, and ask for it back afterwards.
 */
export interface StatusSurface {
  /** Erases the line now (it comes back at the next redraw). */
  clear(): void;
  /** Draws the line again soon (batched: many writes in a burst cause one redraw). */
  redrawSoon(): void;
}
