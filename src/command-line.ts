/**
 * What payctl reads off its command line before commander parses it, read in one
 * place: by the launcher (bin/payctl.js, through dist/command-line.cjs, which the
 * build makes from this file) to decide whether and how to load the bundle, and by
 * main, to choose the commands to load and how to report a failure. It imports
 * only the version (which the launcher prints from here, reading no package.json),
 * so that the launcher's copy stays a few hundred bytes.
 */
export interface CommandLine {
  /** The words after `payctl`, as typed. */
  readonly argv: readonly string[];
  /** The positional words: the command, its subcommand, then its arguments. */
  readonly path: readonly string[];
  /** `--version`, `-V`, `-v` or `version`, alone. */
  readonly version: boolean;
  /** The command whose help is asked for (`WORDS… --help`, `help WORDS…`); undefined when none is. */
  readonly help: readonly string[] | undefined;
  /** --debug: stack traces name payctl's source files, and its lines go to stderr. */
  readonly debug: boolean;
  /** --json, --jq, -o json or -o ndjson: a failure is one JSON line on stderr. */
  readonly json: boolean;
  /**
   * Reads a whole list, page after page (`--all`, `customers find`): into a pipe or a
   * file, the launcher runs it in a worker thread (bin/dist.js). Words that are in fact
   * a flag's value only cost a thread.
   */
  readonly pagesAll: boolean;
}

const VERSION_SPELLINGS = new Set(['--version', '-V', '-v', 'version']);
const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * Reads the command line. `valueFlags` are the spellings of the global options that
 * take a value (`--profile NAME`): their value is not a command word. The launcher
 * passes none: it needs no command path.
 */
export function readCommandLine(argv: readonly string[], valueFlags: ReadonlySet<string> = new Set()): CommandLine {
  const last = argv[argv.length - 1];
  return {
    argv,
    path: positionalWords(argv, valueFlags),
    version: argv.length === 1 && last !== undefined && VERSION_SPELLINGS.has(last),
    help: last !== undefined && HELP_FLAGS.has(last) ? argv.slice(0, -1) : argv[0] === 'help' ? argv.slice(1) : undefined,
    debug: argv.includes('--debug'),
    json: argv.some(
      (arg, i) =>
        arg === '--json' ||
        /^--jq(=|$)/.test(arg) ||
        /^(-o|--output)=?(json|ndjson)$/.test(arg) ||
        ((arg === '-o' || arg === '--output') && /^(json|ndjson)$/.test(argv[i + 1] ?? '')),
    ),
    pagesAll: argv.includes('--all') || (argv.includes('customers') && argv.includes('find')),
  };
}

function positionalWords(argv: readonly string[], valueFlags: ReadonlySet<string>): string[] {
  const words: string[] = [];
  let isValue = false;
  for (const arg of argv) {
    if (isValue) {
      isValue = false;
      continue;
    }
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      isValue = valueFlags.has(arg);
      continue;
    }
    words.push(arg);
  }
  return words;
}

/** What `--version` prints: the launcher takes it from here rather than parse package.json. */
export { VERSION } from './version.js';
