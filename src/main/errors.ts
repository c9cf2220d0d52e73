import { CommanderError } from 'commander';
import type { CommandLine } from '../command-line.js';
import type { CommandSpec } from '../commands/spec.js';
import type { Context } from '../context.js';
import { answerDetail, ExitCode, listedInMessage, PayctlError } from '../errors.js';
import { jsonText, visible, visibleLines } from '../output/sanitize.js';
import type { IO } from '../process-io.js';

export function failure(error: unknown, io: IO, context: Context | undefined, tree: readonly CommandSpec[], line: CommandLine): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return ExitCode.ok;
    // commander has already printed its message, but in json modes, where only the JSON line is written.
    if (line.json) writeJsonError(io, commanderMessage(error, tree, line.path), undefined, undefined, ExitCode.usage);
    return ExitCode.usage;
  }
  return reportError(error, io, context, line);
}

/** commander's message as one line; a group run without its subcommand (commander shows the group's help) says which it takes; `words` is the command path. */
function commanderMessage(error: CommanderError, tree: readonly CommandSpec[], words: readonly string[]): string {
  if (error.code !== 'commander.help') return error.message.replace(/^error: /, '');
  let specs = tree;
  const path: string[] = [];
  for (const word of words) {
    const spec = specs.find((candidate) => candidate.name === word);
    if (!spec?.subcommands) break;
    path.push(word);
    specs = spec.subcommands;
  }
  return `payctl ${path.join(' ')} needs a command: ${specs.map((spec) => spec.name).join(', ')}`;
}

/**
 * One line plus a hint for people; in json modes only the same as a JSON line.
 * No stack trace without --debug. Messages often carry the server's text: it is
 * made visible, so an error line is one line and cannot retitle or recolour the
 * terminal (and JSON escapes it).
 */
export function reportError(error: unknown, io: IO, ctx: Context | undefined, line: Pick<CommandLine, 'json' | 'debug'>): number {
  const scrub = (text: string) => (ctx ? ctx.services.secrets.scrub(text) : text);
  const shown = (text: string) => visible(scrub(text));
  const known = error instanceof PayctlError ? error : undefined;
  const exitCode = known?.exitCode ?? ExitCode.internalError;
  const message = known?.message ?? `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
  if (line.json) {
    writeJsonError(io, scrub(known ? listedInMessage(known) : message), known?.returnCode, known?.status, exitCode);
    if (line.debug && error instanceof Error && !known) io.stderr.write(`${visibleLines(scrub(error.stack ?? ''))}\n`);
    return exitCode;
  }
  const detail = known ? answerDetail(known) : '';
  let text = `error: ${shown(message)}${detail ? ` (${detail})` : ''}\n`;
  const hint = known?.hint ?? (known ? undefined : 'this is a bug in payctl; run again with --debug and report the output');
  if (hint) text += `hint: ${shown(hint)}\n`;
  if (line.debug && error instanceof Error && !known) text += `${visibleLines(scrub(error.stack ?? ''))}\n`;
  io.stderr.write(text);
  return exitCode;
}

function writeJsonError(io: IO, message: string, returnCode: number | undefined, status: number | undefined, exitCode: number): void {
  io.stderr.write(`${jsonText({ error: { message, returnCode: returnCode ?? null, status: status ?? null, exitCode } })}\n`);
}
