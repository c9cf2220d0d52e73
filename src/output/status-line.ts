import type { IO } from '../process-io.js';
import { visible } from './sanitize.js';

export interface StatusLine {
  /** Redraws the line; `final` draws it even within the throttle interval. */
  show(text: () => string, final: boolean): void;
  /** Clears the line, if one was drawn. */
  done(): void;
}

const REDRAW_EVERY_MS = 100;

/**
 * A progress line on stderr, redrawn in place at most ten times a second, and
 * only when stderr is a terminal: a log or a pipe gets nothing. Its text is made
 * visible: the only control it carries is the redraw.
 */
export function statusLine(io: Pick<IO, 'stderr' | 'stderrIsTTY'>): StatusLine {
  if (!io.stderrIsTTY) return { show: () => undefined, done: () => undefined };
  let shown = false;
  let last = 0;
  return {
    show(text, final) {
      const now = Date.now();
      if (now - last < REDRAW_EVERY_MS && !final) return;
      last = now;
      shown = true;
      io.stderr.write(`\r\x1b[2K${visible(text())}`);
    },
    done() {
      if (shown) io.stderr.write('\r\x1b[2K');
    },
  };
}
