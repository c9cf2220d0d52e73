import { setMaxListeners } from 'node:events';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { globalFlag, type Flags } from './flags.js';
import { usageError } from './errors.js';
import { colorEnabled } from './output/color.js';
import { Output, type OutputFormat } from './output/format.js';
import { outTarget, PlantedByAnother, type OutTarget } from './output/out-file.js';
import { choosePager } from './output/pager.js';
import { visible } from './output/sanitize.js';
import type { SecretScrubber } from './redact.js';
import { tableHeight, tableWidth, type IO, type Notices } from './process-io.js';

/** What cut a run short: Ctrl-C, or the reader of stdout went away (`payctl … | head`). */
export type RunStopReason = 'interrupted' | 'output-closed';

/** Listens to a process signal; returns what stops listening. */
export type SignalListener = (signal: 'SIGINT' | 'SIGTERM', listener: () => void) => () => void;

/**
 * Ctrl-C reaches a run here: it aborts `signal`, through which requests and
 * prompts are given up and main stops waiting for the command. A command that
 * handles Ctrl-C itself (a batch letting its rows in flight finish, the sandbox
 * shutting down) takes it over for a while, and then also receives SIGTERM.
 */
export class Interrupts {
  private readonly controller = new AbortController();
  private handler?: () => void;

  constructor(private readonly listen?: SignalListener) {
    // Every request in flight listens to it (a batch's rows, the twin check's pages at once): no bound to warn at.
    setMaxListeners(0, this.controller.signal);
    listen?.('SIGINT', () => this.interrupt());
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): RunStopReason | undefined {
    return this.signal.aborted ? (this.signal.reason as RunStopReason) : undefined;
  }

  /** Ctrl-C: the command's own handling, or the end of the run. */
  interrupt(): void {
    if (this.handler) this.handler();
    else this.stop('interrupted');
  }

  stop(reason: RunStopReason): void {
    if (!this.signal.aborted) this.controller.abort(reason);
  }

  /** Until the returned function is called, Ctrl-C (and SIGTERM) go to `handler` instead. */
  takeOver(handler: () => void): () => void {
    this.handler = handler;
    const stopListening = this.listen?.('SIGTERM', handler);
    return () => {
      if (this.handler === handler) this.handler = undefined;
      stopListening?.();
    };
  }
}

type StreamFlags = Pick<Flags, 'json' | 'output' | 'fields' | 'jq' | 'csvSeparator' | 'color' | 'input' | 'pager' | 'out' | 'debug'>;

/**
 * The format of --jq, which filters JSON: -o json, or -o ndjson, whose lines it
 * filters one by one; any other -o with it is a usage error.
 */
function jqFormat(output: OutputFormat | undefined): OutputFormat {
  if (output === undefined || output === 'json' || output === 'ndjson') return output ?? 'json';
  throw usageError(`${globalFlag('jq')} filters JSON and cannot be used with -o ${output}: leave -o out, or use -o json or -o ndjson`);
}

/** A workbook goes to the --out file, or to a stdout that is not a terminal; --out is for workbooks only. */
function checkOut(format: OutputFormat, out: string | undefined, stdoutIsTTY: boolean): void {
  const flag = globalFlag('out');
  if (out === undefined && format === 'xlsx' && stdoutIsTTY) {
    throw usageError(`-o xlsx writes a workbook, which a terminal cannot show: give ${flag} FILE.xlsx, or redirect stdout to a file`);
  }
  if (out !== undefined && format !== 'xlsx') {
    throw usageError(`${flag} names the file of a workbook (-o xlsx); -o ${format} goes to stdout: redirect it to a file (> FILE)`);
  }
  // Before anything is sent: a batch's report that cannot be written would come after its money moved.
  if (out !== undefined) {
    let target: OutTarget;
    try {
      target = outTarget(out);
    } catch (error) {
      if (error instanceof PlantedByAnother) throw usageError(`${flag} ${out}: ${error.message}; nothing was sent`, 'name a file in a folder of your own');
      throw error;
    }
    if (target.terminal) throw usageError(`-o xlsx writes a workbook, which a terminal cannot show: ${flag} ${out} is a terminal; give a file, or a pipe`);
    try {
      accessSync(target.inPlace ? target.path : path.dirname(target.path), constants.W_OK);
    } catch (error) {
      throw usageError(`${flag} ${out}: cannot write ${target.inPlace ? 'to it' : 'in its folder'} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
}

/**
 * The run's streams and what follows from them: whether each is a terminal, the
 * output format and writer, colour, whether prompting is allowed, and Ctrl-C;
 * and the run's warnings and --debug lines, which any layer says through it.
 */
export class IOStreams implements IO, Notices {
  readonly output: Output;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;

  constructor(
    private readonly streams: IO,
    private readonly env: NodeJS.ProcessEnv,
    private readonly flags: StreamFlags,
    readonly interrupts: Interrupts,
    /** The run's secrets, scrubbed from what is written here. */
    private readonly secrets: SecretScrubber,
    /** The profile's csv separator, read only when csv is written and no --csv-separator was given. */
    profileCsvSeparator: () => string,
    /** The command line as typed (after `payctl`): a table's footer shows it with the next page. */
    readonly argv: readonly string[] = [],
  ) {
    ({ stdout: this.stdout, stderr: this.stderr, stdoutIsTTY: this.stdoutIsTTY, stderrIsTTY: this.stderrIsTTY } = streams);
    const format: OutputFormat = flags.json ? 'json' : flags.jq !== undefined ? jqFormat(flags.output) : (flags.output ?? (streams.stdoutIsTTY ? 'table' : 'tsv'));
    checkOut(format, flags.out, streams.stdoutIsTTY);
    this.output = new Output(streams.stdout, streams.stderr, {
      format,
      out: flags.out,
      fields: flags.fields,
      jq: flags.jq === undefined ? undefined : { flag: globalFlag('jq'), expression: flags.jq },
      color: format === 'table' && colorEnabled(flags.color, env, streams.stdoutIsTTY),
      terminal: streams.stdoutIsTTY,
      csvSeparator: () => flags.csvSeparator ?? profileCsvSeparator(),
      width: tableWidth(env, streams),
      height: tableHeight(env, streams),
      pager: choosePager(env, { terminal: streams.stdoutIsTTY, pagerFlag: flags.pager, inputFlag: flags.input }),
      env,
      holdCtrlC: () => interrupts.takeOver(() => undefined),
    });
  }

  /** A one-line warning on stderr. */
  warn(text: string): void {
    this.stderr.write(`warning: ${visible(this.secrets.scrub(text))}\n`);
  }

  /** A line of --debug output on stderr; nothing without --debug. */
  debug(line: string): void {
    if (this.flags.debug) this.stderr.write(`${visible(this.secrets.scrub(`debug: ${line}`))}\n`);
  }

  /** The width of the terminal stderr is, for lines a person reads there; undefined when stderr is not a terminal. */
  get stderrWidth(): number | undefined {
    return this.streams.stderrIsTTY ? tableWidth(this.env, this.streams) : undefined;
  }

  // stdin, and whether it is a terminal, are looked at only when a command reads it (src/process-io.ts).
  get stdin(): Readable {
    return this.streams.stdin;
  }

  get stdinIsTTY(): boolean {
    return this.streams.stdinIsTTY;
  }

  /** Aborted when the run is cut short: requests and prompts give up through it. */
  get signal(): AbortSignal {
    return this.interrupts.signal;
  }

  /** Whether what is written to stderr (a confirmation's PRODUCTION) may be coloured. */
  get stderrColor(): boolean {
    return colorEnabled(this.flags.color, this.env, this.streams.stderrIsTTY);
  }

  get canPrompt(): boolean {
    return this.stdoutIsTTY && this.stdinIsTTY && this.flags.input && this.env.PAYCTL_NO_INPUT !== '1' && this.env.CI !== 'true';
  }

  /**
   * Where questions are drawn: stderr at a terminal, else the controlling terminal (prompting needs one:
   * canPrompt), so a person who sent stderr to a file still sees what is asked, and stdout carries data only.
   * Without one, stderr.
   */
  get promptStream(): Writable {
    return (this.stderrIsTTY ? undefined : this.streams.terminal?.()) ?? this.stderr;
  }

  /** What turned prompting off where a terminal would allow it (`--no-input is set`), else nothing. */
  get promptsTurnedOff(): string | undefined {
    if (!this.flags.input) return '--no-input is set';
    if (this.env.PAYCTL_NO_INPUT === '1') return 'PAYCTL_NO_INPUT=1 is set';
    if (this.env.CI === 'true') return 'CI=true is set';
    return undefined;
  }

  /**
   * Says why prompting is off, so the refusal tells the user what to change: `what`
   * is what to give instead, `how` what a terminal would do about it.
   */
  promptRefusalHint(what = 'the flags', how = 'to be asked'): string {
    const turnedOff = this.promptsTurnedOff;
    return turnedOff ? `give ${what} (${turnedOff})` : `give ${what}, or run at a terminal ${how}`;
  }
}
