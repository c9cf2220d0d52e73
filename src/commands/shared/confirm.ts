import type { Context } from '../../context.js';
import { colorEnabled } from '../../output/color.js';
import { confirmAction } from '../../prompt.js';

/**
 * The lines every confirmation ends with: in which account and against which
 * profile and environment the change runs. Production is written in capitals
 * (and red on a colour terminal) so that nobody mistakes it for a sandbox.
 */
export async function contextLines(ctx: Context): Promise<string[]> {
  const settings = ctx.settings();
  let environment: string = settings.env;
  if (settings.env === 'production') {
    environment = 'PRODUCTION (real money)';
    if (colorEnabled(ctx.flags.color, ctx.env, ctx.io.stderrIsTTY)) {
      const { Chalk } = await import('chalk');
      environment = new Chalk({ level: 1 }).bold.red(environment);
    }
  }
  return [`  account:      ${ctx.accountLabel()}`, `  profile:      ${settings.profileName} (${environment}, ${settings.baseUrl})`];
}

/**
 * Shows what will happen and asks, default No. With --yes or --dry-run the summary is
 * still written to stderr (a log then shows what was sent) and nothing is asked;
 * without a terminal and without --yes the command refuses (exit 2).
 */
export async function confirmChange(ctx: Context, summary: string[], question: string): Promise<void> {
  const lines = [...summary, ...(await contextLines(ctx))];
  if (ctx.flags.dryRun || ctx.flags.yes) {
    ctx.io.stderr.write(`${lines.join('\n')}\n`);
    return;
  }
  await confirmAction(ctx, lines, question);
}
