import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { visible } from '../../output/sanitize.js';

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
  const { io, services } = ctx;
  const asking = !services.flags.dryRun && !services.flags.yes;
  if (asking && !io.canPrompt) {
    throw usageError(`${question.replace(/\?$/, '')}: refused without confirmation`, 'pass --yes to confirm, or run it at a terminal to be asked');
  }
  let lines = [...summary.map(visible), ...(await contextLines(ctx))];
  // At a terminal, a line wider than the screen continues under its value instead of wherever the terminal breaks it.
  const width = io.stderrWidth;
  if (width !== undefined) {
    const { wrapLabelled } = await import('../../output/wrap.js');
    lines = lines.flatMap((line) => wrapLabelled(line, width));
  }
  io.stderr.write(`${lines.join('\n')}\n`);
  if (asking && !(await (await services.prompter()).confirm(question))) throw usageError('not confirmed: nothing was sent');
}
