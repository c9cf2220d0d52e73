import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { visible } from '../../output/sanitize.js';
import { TRAIT_FLAGS } from '../../flags.js';
import { flagOf } from '../spec.js';

/**
 * The lines every confirmation ends with: in which account and against which
 * profile and environment the change runs. Production is written in capitals
 * (and red on a colour terminal) so that nobody mistakes it for a sandbox.
 * Each part is made visible before the colour is added.
 */
async function contextLines({ io, services }: Context): Promise<string[]> {
  const settings = services.settings();
  let environment: string = settings.env;
  if (settings.env === 'production') {
    environment = 'PRODUCTION (real money)';
    if (io.stderrColor) {
      const { Chalk } = await import('chalk');
      environment = new Chalk({ level: 1 }).bold.red(environment);
    }
  }
  return [`  account:      ${visible(services.accountLabel())}`, `  profile:      ${visible(settings.profileName)} (${environment}, ${visible(settings.baseUrl)})`];
}

/**
 * Shows what will happen on stderr and asks, default No. Each summary line is made
 * visible (a holder name cannot move the cursor and rewrite the amount above it).
 * With --yes or --dry-run the summary is still written (a log then shows what was
 * sent) and nothing is asked; without a terminal and without --yes the command
 * refuses (exit 2), since nobody saw it.
 */
export async function confirmChange(ctx: Context, summary: readonly string[], question: string): Promise<void> {
  await askToConfirm(ctx, question, 'not confirmed: nothing was sent', async () => {
    const lines = [...summary.map(visible), ...(await contextLines(ctx))];
    // At a terminal, a line wider than the screen continues under its value instead of wherever the terminal breaks it.
    const width = ctx.io.stderrWidth;
    if (width === undefined) return lines;
    const { wrapLabelled } = await import('../../output/wrap.js');
    return lines.flatMap((line) => wrapLabelled(line, width));
  });
}

/**
 * Writes what will happen (`shown`) on stderr and asks `question`, default No; a No is
 * exit 2 with `declined`. With --yes or --dry-run it is written and nothing is asked.
 * Without a terminal and without --yes the change is refused first (exit 2), since nobody
 * would see it.
 */
export async function askToConfirm(
  { io, services }: Context,
  question: string,
  declined: string,
  shown: () => readonly string[] | Promise<readonly string[]>,
): Promise<void> {
  const asking = !services.flags.dryRun && !services.flags.yes;
  if (asking && !io.canPrompt) {
    throw usageError(
      `${question.replace(/\?$/, '')}: refused without confirmation`,
      // At a terminal the person is told which setting stops the question, not sent to a terminal.
      `pass ${flagOf('yes', TRAIT_FLAGS.confirms.yes)} to confirm${io.promptsTurnedOff ? ` (${io.promptsTurnedOff})` : ', or run it at a terminal to be asked'}`,
    );
  }
  const summary = `${(await shown()).join('\n')}\n`;
  io.stderr.write(summary);
  // stderr sent to a file keeps the summary for the log; the person asked must see it too.
  if (asking && io.promptStream !== io.stderr) io.promptStream.write(summary);
  if (asking && !(await (await services.prompter()).confirm(question))) throw usageError(declined);
}
