import type { Readable, Writable } from 'node:stream';
import type { IOStreams } from './iostreams.js';
import type { Services } from './services.js';

/** The streams a run is given (main's second argument), with whether each is a terminal. */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's size, when stdout is one and says. */
  stdoutColumns?: number;
  stdoutRows?: number;
}

/**
 * What a command and the helpers it calls work with: the streams with their
 * terminal facts and policies (`io`), and the services made on first use
 * (`services`: config, settings, API client, prompter, secret scrubber).
 */
export interface Context {
  readonly io: IOStreams;
  readonly services: Services;
}
